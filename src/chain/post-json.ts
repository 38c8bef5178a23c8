import http from "node:http";
import https from "node:https";

/** What a node answered to one POST: the status, its `Retry-After` header and the body as text. */
export type PostReply = { status: number; retryAfter: string | null; text: string };

/** The request took longer than its timeout: destroyed, its socket with it. */
export class PostTimeoutError extends Error {
  override name = "PostTimeoutError";
}

// Kept-alive connections to the node, one pool per scheme for the process.
const agents = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

/**
 * POSTs a JSON body to the node and reads the whole answer, over node's own HTTP client with kept-alive
 * sockets: a fraction of `fetch`'s CPU per request (no web streams, no per-request abort signal), which
 * the head follower pays every block and a quote on each round trip. Rejects with `PostTimeoutError` past
 * `timeoutMs`, or the socket's error.
 */
export function postJson(url: URL, body: string, timeoutMs: number): Promise<PostReply> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === "https:";
    const request = (secure ? https : http).request(
      url,
      {
        method: "POST",
        agent: agents[secure ? "https:" : "http:"],
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          clearTimeout(timer);
          const retryAfter = response.headers["retry-after"];
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: typeof retryAfter === "string" ? retryAfter : null,
            text: Buffer.concat(chunks).toString("utf8"),
          });
        });
      },
    );
    const timer = setTimeout(
      () => request.destroy(new PostTimeoutError(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(body);
  });
}
