import type { Plugin } from 'vite';

/**
 * antd's component styles, generated once at build time instead of in every visitor's browser.
 *
 * antd (CSS-in-JS) builds each component's stylesheet the first time the component renders:
 * style objects, serialised, hashed and inserted as a <style> element, on the main thread while
 * the console's first screen renders (a third of its render time on /equipments). Since antd 6
 * those stylesheets do not depend on the theme (its values are CSS variables, written apart), so
 * they can be rendered here: every component the console uses, server-side, into a cssinjs cache
 * whose styles `extractStyle` writes out with a map of their cache paths. In the browser
 * `antd-static-styles.ts` puts the text in the document before the first render; antd finds each
 * component's path in the map and skips building its styles. A component left out here (or any
 * mismatch, e.g. another antd version) is simply built at run time as before.
 *
 * The build's module `virtual:antd-styles` exports the text; in the dev server and tests it is
 * empty (antd builds everything at run time there).
 */
export function antdStaticStyles(): Plugin {
  const id = 'virtual:antd-styles';
  const resolved = `\0${id}`;
  let build = false;
  return {
    name: 'antd-static-styles',
    configResolved(config) {
      build = config.command === 'build';
    },
    resolveId: (source) => (source === id ? resolved : undefined),
    async load(source) {
      if (source !== resolved) return undefined;
      const css = build ? await extractAntdStyles() : '';
      return `export default ${JSON.stringify(css)};`;
    },
  };
}

async function extractAntdStyles(): Promise<string> {
  // cssinjs names its hash class after NODE_ENV when first loaded: the browser build's is `css-…`.
  if (process.env.NODE_ENV !== 'production') {
    throw new Error(
      'antd styles: the build must run with NODE_ENV=production (the class hash depends on it)',
    );
  }
  const [{ createElement: h, Fragment }, { renderToString }, antd, cssinjs] = await Promise.all([
    import('react'),
    import('react-dom/server'),
    import('antd'),
    import('@ant-design/cssinjs'),
  ]);
  type Any = Parameters<typeof h>[0];
  const panel = (c: unknown) =>
    (c as { _InternalPanelDoNotUseOrYouWillBeFired: Any })._InternalPanelDoNotUseOrYouWillBeFired;
  const { Form, Input, Typography, Layout, Radio, Checkbox, Skeleton, Space, Card, Badge } = antd;
  // The components of the console's frequent screens (with their parts and popups: a popup's
  // styles come with its panel), each rendered once; what they render inside (Pagination in
  // Table, Empty, Spin …) comes along. Those of rarer screens (uploads, trees, grids, number
  // fields, images, colour and cascading pickers) and the toasts, which load later anyway, are
  // left to run time: each would add to every console page's download and style parsing.
  const nodes: [unknown, object?][] = [
    [antd.Button, { children: 'b' }],
    [antd.Flex],
    [Typography.Text],
    [Typography.Title],
    [Typography.Paragraph],
    [Typography.Link],
    [antd.Tag],
    [Card],
    [Card.Meta],
    [antd.Alert, { title: 'a' }],
    [Form, { children: h(Form.Item, { label: 'l' }, h(Input)) }],
    [antd.Select],
    [panel(antd.Select)],
    [panel(antd.Modal)],
    [panel(antd.Tooltip), { title: 't' }],
    [panel(antd.Popover), { content: 'p' }],
    [panel(antd.Popconfirm), { title: 'p' }],
    [panel(antd.Drawer)],
    [panel(antd.Dropdown), { menu: { items: [{ key: 'a', label: 'a' }] } }],
    [panel(antd.DatePicker)],
    [Input],
    [Input.Search],
    [Input.TextArea],
    [Input.Password],
    [antd.Spin],
    [antd.Empty],
    [antd.Descriptions, { items: [{ key: 'a', label: 'a', children: 'a' }] }],
    [antd.Tabs, { items: [{ key: 'a', label: 'a', children: 'a' }] }],
    [antd.Progress],
    [antd.Progress, { type: 'circle' }],
    [Badge],
    [Checkbox],
    [Checkbox.Group],
    [antd.Table, { columns: [{ key: 'a', title: 'a' }], dataSource: [], pagination: { total: 100 } }],
    [antd.Segmented, { options: ['a'] }],
    [antd.Result],
    [antd.Switch],
    [Space],
    [Space.Compact],
    [Skeleton],
    [Skeleton.Button],
    [Skeleton.Input],
    [Radio],
    [Radio.Group],
    [Radio.Button],
    [Layout, { children: [h(Layout.Sider, { key: 's' }), h(Layout.Header, { key: 'h' })] }],
    [antd.Avatar],
    [antd.Menu, { items: [{ key: 'a', label: 'a', children: [{ key: 'b', label: 'b' }] }] }],
    [antd.Divider],
    [antd.DatePicker],
    [antd.DatePicker.RangePicker],
    [antd.Pagination, { total: 100 }],
  ];
  const cache = cssinjs.createCache();
  const { error, warn } = console;
  // antd warns about the bare props above; none of it concerns the styles.
  console.error = console.warn = () => {};
  try {
    renderToString(
      h(
        cssinjs.StyleProvider,
        { cache },
        h(
          antd.ConfigProvider,
          null,
          nodes.map(([c, props], i) => h(Fragment, { key: i }, h(c as Any, props))),
        ),
      ),
    );
  } finally {
    console.error = error;
    console.warn = warn;
  }
  const css = cssinjs.extractStyle(cache, { plain: true, types: 'style' });
  if (!/:where\(\.css-[a-z0-9]+\)/.test(css))
    throw new Error('antd styles: no hashed component style extracted');
  return css;
}
