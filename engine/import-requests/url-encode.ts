// Percent-encoding that cannot throw: a description's JSON may hold a lone surrogate ("\ud800"),
// which encodeURIComponent refuses with a URIError; it is sent as U+FFFD instead, as the driver does.

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const wellFormed = (text: string): string => text.replace(LONE_SURROGATE, '\ufffd');

/** A query name or value, a path segment's value. */
export const encodeComponent = (text: string): string => encodeURIComponent(wellFormed(text));

/** A path's fixed text: / and %XX kept (encodeURI alone turned a written %2B into %252B). */
export const encodePathText = (text: string): string => encodeURI(wellFormed(text)).replace(/%25([0-9A-Fa-f]{2})/g, '%$1');
