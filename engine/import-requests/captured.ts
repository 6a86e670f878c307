import { RequestTemplate } from '../../contract/scenario.js';

// What an import reads before it makes anything: requests as a browser or curl sent them, each with
// the response it got when there is one (a HAR has them, a curl command does not).

const MethodEnum = RequestTemplate.shape.method.unwrap();
export const METHODS: readonly string[] = MethodEnum.options;
export type Method = (typeof MethodEnum.options)[number];
export const isMethod = (m: string): m is Method => METHODS.includes(m);

/** A request as captured: already checked (a method the scenario can send, an http(s) URL). */
export interface CapturedRequest {
  method: Method;
  url: URL;
  headers: Record<string, string>;
  body?: string | undefined;
}

/** A response as recorded: its body only when it was recorded as text and is small enough to extract from. */
export interface CapturedResponse {
  status: number;
  headers: readonly { name: string; value: string }[];
  body: string | null;
  mimeType: string;
}

export interface Exchange {
  request: CapturedRequest;
  response: CapturedResponse | null;
}

/** Path and query as the template's path. */
export const pathOf = (url: URL): string => `${url.pathname}${url.search}`;
