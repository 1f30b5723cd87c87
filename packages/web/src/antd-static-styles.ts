import css from 'virtual:antd-styles';

const ID = 'antd-static-styles';

/**
 * Puts antd's component styles, built at build time (../antd-styles.ts), in the document, so
 * that antd does not build them while the console renders. Before the first antd component
 * renders: antd reads the styles' path map once, on its first style. First in <head>, where
 * antd's own style elements go, so that the app's stylesheets (base.css, a page's CSS) still
 * come after them and win at equal specificity, as with antd's run-time styles.
 */
export function installAntdStyles(doc: Document = document): void {
  if (!css || doc.getElementById(ID)) return;
  const style = doc.createElement('style');
  style.id = ID;
  style.textContent = css;
  doc.head.prepend(style);
}
