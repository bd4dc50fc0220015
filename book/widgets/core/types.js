// The shapes the loader, the widget worker and the widgets share (JSDoc only: checked by
// `tsc --checkJs`, nothing at run time).

/**
 * A form field of a widget: a select (one or several options), a number or a text.
 * @typedef {{ name: string, label: string, type: 'select' | 'number' | 'text', default?: any,
 *   options?: (string | { value: string, label: string })[], multiple?: boolean, min?: number,
 *   max?: number, step?: number, size?: number, placeholder?: string }} Control
 */

/**
 * One timed or checked row of a result (the results JSON of benches/results).
 * @typedef {{ name: string, params?: Record<string, any>, unit?: string, median?: number,
 *   min?: number, max?: number, samples?: number, verified: boolean }} ResultRow
 */

/**
 * What a task returns; the widget worker adds `commit`, `date` and `device.browser`.
 * @typedef {{ suite: string, device: Record<string, any>, results: ResultRow[], verified?: boolean,
 *   unavailable?: any, commit?: string, date?: string, [key: string]: any }} TaskResult
 */

/**
 * What a widget shows: a message with links, tables, and a chart (core/render.js).
 * @typedef {{ caption?: string, columns: string[], rows: any[][] }} Table
 * @typedef {{ title?: string, labels: string[], series: { label: string, data: (number | null)[], color?: string }[],
 *   logScale?: boolean, yLabel?: string, stacked?: boolean }} Chart
 * @typedef {{ message?: string | null, links?: { text: string, href: string }[], tables?: Table[], chart?: Chart }} View
 */

/**
 * The main wasm package (wasm-demo, feature `book`), as the widget worker hands it to each task;
 * its declarations come from `make wasm`.
 * @typedef {typeof import('../../generated/pkg/fastmsm.js')} Wasm
 */

/**
 * A widget module, widgets/NAME.js (core/loader.js hydrates `<div class="fastmsm-widget" data-widget="NAME">`).
 * `task` and `prepare` run in the widget worker with the main wasm package; `view` and `fromPage` in
 * the page. `prepare` (optional) runs when the page opens and when a control named in `prepareOn`
 * changes, before any click.
 * @typedef {{ title: string, controls?: Control[], quick?: Record<string, any>, autorun?: boolean,
 *   task: (wasm: Wasm, params: any, progress: (fraction: number, text: string) => void) => Promise<TaskResult>,
 *   prepare?: (wasm: Wasm, params: any, progress: (fraction: number, text: string) => void) => Promise<any>,
 *   prepareOn?: string[],
 *   view: (result: TaskResult) => View, fromPage?: (params: any) => any }} Widget
 */

export {};
