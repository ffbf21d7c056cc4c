// Bundles the widget front end into the Python package (run by hatch-jupyter-builder on pip install).
// CSS files are imported as minified text: the widget injects its stylesheet itself (see src/styles.js).
import * as esbuild from "esbuild";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const watch = process.argv.includes("--watch");

const cssAsText = {
  name: "css-as-text",
  setup(build) {
    build.onLoad({ filter: /\.css$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const { code } = await esbuild.transform(source, { loader: "css", minify: !watch });
      return { contents: code, loader: "text" };
    });
  },
};

const options = {
  entryPoints: [path.join(here, "src", "index.js")],
  outfile: path.join(here, "..", "agui_notebook", "static", "widget.js"),
  bundle: true,
  format: "esm",
  target: ["es2020"],
  minify: !watch,
  sourcemap: watch ? "inline" : false,
  plugins: [cssAsText],
  logLevel: "info",
};
if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
