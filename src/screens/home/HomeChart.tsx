/**
 * One bar chart of a module home, drawn with ECharts (a chunk of its own: only the bar chart,
 * grid, legend, tooltip and the SVG renderer are imported through `echarts/core`, and the homes
 * load this module lazily, so no other route carries it — docs/architecture.md). Colours come
 * from the antd theme tokens, so the axes, labels and legend read in the light and the dark
 * theme alike; the series colours are given by the caller per theme.
 *
 * The chart is an image to assistive technology: the wrapper has role="img" and the accessible
 * name the caller gives (title and the figures in words), and the SVG inside is hidden from it.
 */
import { theme } from 'antd';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as registerParts, type EChartsType } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

registerParts([BarChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export interface ChartSeries {
  name: string;
  data: number[];
  color: string;
  /** one colour per bar (a status chart: each status in its enum colour); `color` is the legend's */
  colors?: string[];
}

export interface HomeChartProps {
  /** x-axis categories (y-axis when horizontal) */
  categories: string[];
  series: ChartSeries[];
  stacked?: boolean;
  horizontal?: boolean;
  /** accessible name: what the chart shows, in words */
  label: string;
  height?: number;
  testId?: string;
}

export default function HomeChart({ categories, series, stacked, horizontal, label, height = 260, testId }: HomeChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const { token } = theme.useToken();

  useEffect(() => {
    if (!el.current) return;
    const c = init(el.current, undefined, { renderer: 'svg' });
    chart.current = c;
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(el.current);
    return () => {
      ro.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const axisLabel = { color: token.colorTextSecondary, fontSize: 12 };
    const axisLine = { lineStyle: { color: token.colorBorder } };
    const splitLine = { lineStyle: { color: token.colorBorderSecondary } };
    const cat = { type: 'category' as const, data: categories, axisLabel: { ...axisLabel, hideOverlap: true }, axisLine, axisTick: { show: false } };
    const val = { type: 'value' as const, minInterval: 1, axisLabel, splitLine };
    chart.current?.setOption(
      {
        backgroundColor: 'transparent',
        animation: false,
        textStyle: { color: token.colorText, fontFamily: token.fontFamily },
        grid: { left: 8, right: 16, top: series.length > 1 ? 36 : 12, bottom: 8, containLabel: true },
        legend: series.length > 1 ? { top: 0, textStyle: { color: token.colorText }, inactiveColor: token.colorTextDisabled } : { show: false },
        tooltip: {
          trigger: 'axis',
          axisPointer: { type: 'shadow' },
          backgroundColor: token.colorBgElevated,
          borderColor: token.colorBorder,
          textStyle: { color: token.colorText },
        },
        xAxis: horizontal ? val : cat,
        yAxis: horizontal ? { ...cat, inverse: true } : val,
        series: series.map((s) => ({
          type: 'bar',
          name: s.name,
          data: s.colors ? s.data.map((value, i) => ({ value, itemStyle: { color: s.colors?.[i] ?? s.color } })) : s.data,
          stack: stacked ? 'all' : undefined,
          itemStyle: { color: s.color },
          barMaxWidth: 28,
        })),
      },
      { notMerge: true },
    );
  }, [categories, series, stacked, horizontal, token]);

  return (
    <div role="img" aria-label={label} data-testid={testId}>
      <div ref={el} aria-hidden="true" style={{ width: '100%', height }} />
    </div>
  );
}
