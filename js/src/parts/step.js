// @ts-check
// `step-start` parts: a thin separator between the steps of one answer.
import { element } from "../dom.js";

export class StepStartPartView {
  constructor() {
    this.el = element("div", "agui-part agui-step");
    this.el.dataset.partType = "step-start";
    this.el.setAttribute("role", "separator");
  }

  update() {}
}
