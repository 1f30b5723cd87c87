import { BarChart, EffectScatterChart, LineChart, MapChart, PieChart, ScatterChart } from 'echarts/charts';
import {
  GeoComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TitleComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import { init, registerMap, use as register } from 'echarts/core';
import { LabelLayout } from 'echarts/features';
import { CanvasRenderer } from 'echarts/renderers';

// Only what the console draws (ARCHITECTURE §6): the history chart, and the data centres'
// bars, pies, scatter points and the geo map of China. This module is imported dynamically,
// so echarts downloads when a chart is first shown and never with the login page or the
// console shell.
register([
  LineChart,
  BarChart,
  PieChart,
  ScatterChart,
  EffectScatterChart,
  MapChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  MarkLineComponent,
  TitleComponent,
  GeoComponent,
  VisualMapComponent,
  // Bar labels hide where they would overlap (labelLayout.hideOverlap) in short panels.
  LabelLayout,
  CanvasRenderer,
]);

export { init, registerMap };
export type { ECharts, EChartsCoreOption } from 'echarts/core';
