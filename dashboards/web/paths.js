// A name that the URL parser would take as a dot segment ("." or ".."; "%2E" too) cannot go in a path: the parser
// drops or climbs it before the request leaves, so such a campaign is named in the query of a route that takes one.
export const isDotSegment = (name) => name === "." || name === "..";
