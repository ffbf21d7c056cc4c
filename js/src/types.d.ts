// esbuild's css-as-text plugin (build.mjs) turns a stylesheet import into its minified text.
declare module "*.css" {
  const css: string;
  export default css;
}
