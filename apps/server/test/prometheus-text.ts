/*
 * Reading what a metrics endpoint answered (Prometheus text format 0.0.4): a sample is
 * `name{label="value",…} number`, one per line; `#` lines are HELP and TYPE.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The value of the sample with exactly these labels, or undefined when there is none. */
export function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = JSON.stringify(Object.entries(labels).sort());
  return parseSamples(text).find((s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === want)?.value;
}
