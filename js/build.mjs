// Bundles the widget front end into the Python package (run by hatch-jupyter-builder on pip install).
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const watch = process.argv.includes("--watch");
const options = {
  entryPoints: [path.join(here, "src", "index.js")],
  outfile: path.join(here, "..", "agui_notebook", "static", "widget.js"),
  bundle: true,
  format: "esm",
  target: ["es2020"],
  minify: !watch,
  sourcemap: watch ? "inline" : false,
  loader: { ".css": "text" },
  logLevel: "info",
};
if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
