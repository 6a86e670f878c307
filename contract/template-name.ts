// The one place a request template's endpoint name is made: its own `name`, else its method and
// path ("GET /fib"), a gRPC call's its service/method ("loadscope.Bench/Fib"). Results, thresholds, Compare and the views pair endpoints by this name.
// Zod-free and import-free: the driver worker names its phases' endpoints with it.

/** A template's endpoint name; an absent method is GET, as the scenario schema defaults it. */
export function templateName(t: { readonly name?: string | undefined; readonly method?: string | undefined; readonly path: string; readonly stream?: { readonly protocol: string } | undefined }): string {
  if (t.name !== undefined) return t.name;
  // a gRPC call is named as its method, service/method (its path is /package.Service/Method)
  return t.stream?.protocol === 'grpc' ? t.path.slice(1) : `${t.method ?? 'GET'} ${t.path}`;
}
