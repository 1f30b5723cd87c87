import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import { init, use as register } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

// Only what the history chart draws (ARCHITECTURE §6). This module is imported dynamically
// by HistoryChart, so echarts downloads when a chart is first shown and never with the
// login page or the console shell.
register([LineChart, GridComponent, LegendComponent, TooltipComponent, MarkLineComponent, CanvasRenderer]);

export { init };
export type { ECharts, EChartsCoreOption } from 'echarts/core';
