// @ts-check
// Batches DOM work to animation frames: any number of requests before the next frame run the callback once.
export class FrameScheduler {
  /** @param {() => void} callback */
  constructor(callback) {
    this.callback = callback;
    this.handle = 0;
  }

  request() {
    if (this.handle !== 0) return;
    this.handle = requestAnimationFrame(() => {
      this.handle = 0;
      this.callback();
    });
  }

  cancel() {
    if (this.handle !== 0) cancelAnimationFrame(this.handle);
    this.handle = 0;
  }
}
