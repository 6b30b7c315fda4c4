import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';

// No helm binary is available here (none in Debian, none on npm that renders charts), so the tests
// render the chart with this renderer of the few template actions the chart uses, and refuse any
// other: `{{ .Values.a.b }}`, `{{ .Release.Name }}`, `{{ .Chart.Name }}`, and
// `{{- toYaml .Values.x | nindent N }}`. A chart that needs more fails here rather than rendering
// something helm would not.

export interface RenderedChart {
  /** Each YAML document of the rendered templates, parsed. */
  documents: Array<Record<string, any>>;
}

export function renderChart(chartDir: string, releaseName: string, overrides: Record<string, unknown> = {}): RenderedChart {
  const chart = parse(readFileSync(path.join(chartDir, 'Chart.yaml'), 'utf8')) as Record<string, unknown>;
  const values = { ...(parse(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8')) as Record<string, unknown>), ...overrides };
  const scope = { Values: values, Release: { Name: releaseName }, Chart: { Name: chart.name, AppVersion: chart.appVersion } };
  const lookup = (reference: string) => {
    if (!/^(\.[A-Za-z][A-Za-z0-9]*)+$/.test(reference)) throw new Error(`unsupported reference ${reference}`);
    let value: any = scope;
    for (const key of reference.slice(1).split('.')) {
      if (value === undefined || value === null || !(key in value)) throw new Error(`${reference} is not defined`);
      value = value[key];
    }
    return value;
  };
  const documents: RenderedChart['documents'] = [];
  for (const file of readdirSync(path.join(chartDir, 'templates')).filter((f) => f.endsWith('.yaml')).sort()) {
    const source = readFileSync(path.join(chartDir, 'templates', file), 'utf8');
    const rendered = source.replace(/([ \t]*)\{\{(-?)\s*(.*?)\s*(-?)\}\}/g, (_match, indent: string, trimLeft: string, action: string) => {
      const toYaml = /^toYaml (\S+) \| nindent (\d+)$/.exec(action);
      if (toYaml) {
        if (!trimLeft) throw new Error(`${file}: toYaml without {{- }}`);
        const pad = ' '.repeat(Number(toYaml[2]));
        const text = stringify(lookup(toYaml[1])).trimEnd();
        // `{{-` eats the whitespace before it, back over the line break; nindent starts a new line.
        return `\n${text.split('\n').map((line) => pad + line).join('\n')}`;
      }
      if (/^\.[A-Za-z.]+$/.test(action)) {
        const value = lookup(action);
        if (typeof value === 'object') throw new Error(`${file}: ${action} is not a scalar`);
        return indent + String(value);
      }
      throw new Error(`${file}: the template action {{ ${action} }} is not supported by this renderer`);
    });
    // `{{-` trims the line break before it: join such lines as helm does.
    const joined = rendered.replace(/\n[ \t]*\n(?=[ \t]+\S)/g, '\n');
    for (const document of parseAllDocuments(joined)) {
      if (document.errors.length) throw new Error(`${file}: ${document.errors[0].message}`);
      const value = document.toJS();
      if (value) documents.push(value);
    }
  }
  return { documents };
}
