type Sample = { name: string; labels: string; value: number };

/**
 * What `GET /metrics` (Prometheus text) says after a run about followed state, its mismatches and the RPC
 * client, as short printed lines: requests and adaptations by method and outcome, every followed-state
 * sample (zeros included: "not subscribed" is a 0), and the service's own per-quote RPC figures as means.
 * Durations and histogram buckets are left out.
 */
export async function scrapeMetrics(baseUrl: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/metrics`);
  if (!response.ok) return [`GET /metrics answered ${response.status}`];
  const samples = parse(await response.text());
  const named = (name: string) => samples.filter((sample) => sample.name === name);
  const listed = (name: string) => {
    const found = named(name).filter((sample) => sample.value !== 0);
    return found.length === 0
      ? []
      : [`${name}: ${found.map((s) => `${s.labels || "total"} ${s.value}`).join(", ")}`];
  };
  const followed = samples
    .filter((sample) => /followed|mismatch/.test(sample.name))
    .map((sample) => `${sample.name}${sample.labels ? `{${sample.labels}}` : ""} ${sample.value}`);
  const perQuote = named("junction_quote_rpc_sum").map((sum) => {
    const count = named("junction_quote_rpc_count").find((c) => c.labels === sum.labels)?.value ?? 0;
    return `${sum.labels} ${count > 0 ? (sum.value / count).toFixed(2) : "–"}`;
  });
  return [
    ...listed("junction_rpc_requests_total"),
    ...listed("junction_rpc_adaptations_total"),
    ...followed,
    ...(perQuote.length > 0
      ? [`junction_quote_rpc, mean per quote (counted by the service): ${perQuote.join(", ")}`]
      : []),
  ];
}

/** Prometheus text as samples; labels kept as their text, quotes dropped, for printing. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    samples.push({ name: match[1]!, labels: (match[2] ?? "").replaceAll('"', ""), value: Number(match[3]) });
  }
  return samples;
}
