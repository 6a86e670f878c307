// The one place a request template's endpoint name is made: its own `name`, else its method and
// path ("GET /fib"). Results, thresholds, Compare and the views pair endpoints by this name.
// Zod-free and import-free: the driver worker names its phases' endpoints with it.

/** A template's endpoint name; an absent method is GET, as the scenario schema defaults it. */
export function templateName(t: { readonly name?: string | undefined; readonly method?: string | undefined; readonly path: string }): string {
  return t.name ?? `${t.method ?? 'GET'} ${t.path}`;
}
