/**
 * An agent's parameters (AgentContext.params, from a scenario's `agentParams`): checked against the agent's
 * own defaults, so that a misspelt or mistyped parameter is an error instead of a weight silently left at its
 * default or turned into NaN.
 */
export function checkAgentParams<T extends Record<string, unknown>>(agent: string, params: Record<string, unknown> | undefined, defaults: T): Partial<T> {
  if (!params) return {};
  const names = Object.keys(defaults);
  for (const [k, v] of Object.entries(params)) {
    if (!Object.hasOwn(defaults, k)) {
      throw new Error(names.length
        ? `${agent}: unknown parameter "${k}" (its parameters: ${names.join(', ')})`
        : `${agent}: takes no parameters, got "${k}"`);
    }
    const d = defaults[k];
    const ok = typeof d === 'number' ? typeof v === 'number' && Number.isFinite(v) : typeof v === typeof d;
    if (!ok) throw new Error(`${agent}: parameter "${k}": expected a ${typeof d === 'number' ? 'finite number' : typeof d} (default ${JSON.stringify(d)}), got ${JSON.stringify(v)}`);
  }
  return params as Partial<T>;
}
