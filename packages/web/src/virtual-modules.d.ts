/** antd's component styles rendered at build time (../antd-styles.ts); empty in dev and tests. */
declare module 'virtual:antd-styles' {
  const css: string;
  export default css;
}
