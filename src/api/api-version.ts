/**
 * Version of the interface description (docs/rules.md, versioning 1): the OpenAPI document's `info.version` and
 * `apiVersion` of `GET /api/v2/config`.
 */
export const API_VERSION = "2.15.0" as const;
