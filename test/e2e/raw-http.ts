import { request } from "node:http";

export type RawAnswer = {
  status: number;
  setCookie: string[] | undefined;
  body: { error?: { code: string; message: string } } & Record<string, unknown>;
};

/**
 * A JSON POST over `node:http`, so the caller chooses every header, `Host` included (fetch cannot set it):
 * for tests of what the service makes of headers a client controls.
 */
export function rawJsonPost(
  url: string,
  payload: unknown,
  headers: Record<string, string>,
): Promise<RawAnswer> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        hostname,
        port,
        path: pathname + search,
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
      },
      (response) => {
        let raw = "";
        response.on("data", (chunk) => {
          raw += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode!,
            setCookie: response.headers["set-cookie"],
            body: raw ? JSON.parse(raw) : {},
          }),
        );
      },
    );
    outgoing.once("error", reject);
    outgoing.end(JSON.stringify(payload));
  });
}
