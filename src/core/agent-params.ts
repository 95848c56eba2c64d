/**
 * An agent's parameters (AgentContext.params, from a scenario's `agentParams`): checked against the agent's
 * own defaults, so that a misspelt or mistyped parameter is an error instead of a weight silently left at its
 * default or turned into NaN.
 */
/** The values a number parameter may take (`checkAgentParams`): a lower and upper bound, whole numbers only. */
export interface ParamRange { min?: number; max?: number; integer?: true }

export function checkAgentParams<T extends Record<string, unknown>>(agent: string, params: Record<string, unknown> | undefined, defaults: T, ranges: Partial<Record<keyof T, ParamRange>> = {}): Partial<T> {
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
    // a count of 0 searches would quietly make a searching agent play as another (lookahead's rollouts: 0)
    const r = ranges[k as keyof T];
    if (r && typeof v === 'number' && ((r.integer && !Number.isInteger(v)) || (r.min !== undefined && v < r.min) || (r.max !== undefined && v > r.max))) {
      const what = `${r.integer ? 'a whole number' : 'a number'}${r.min !== undefined ? ` from ${r.min}` : ''}${r.max !== undefined ? ` to ${r.max}` : ''}`;
      throw new Error(`${agent}: parameter "${k}": expected ${what} (default ${JSON.stringify(d)}), got ${JSON.stringify(v)}`);
    }
  }
  return params as Partial<T>;
}
