import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { isPrivateAddress, publicOnlyLookup } from "./endpoint-address.ts";
import { SIGNATURE_HEADER, signatureHeader } from "./webhook-signature.ts";

/** The most of a receiver's answer kept in the delivery log (the rest is read and dropped). */
export const RESPONSE_EXCERPT_CHARS = 200;

/** Why an attempt got no HTTP answer, in closed words (never the remote's text). */
export type SendFailure = "timeout" | "refused-address" | "connection-refused" | "dns" | "tls" | "network";

export type SendResult =
  | { answered: true; status: number; excerpt: string }
  | { answered: false; failure: SendFailure };

const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 16 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 16 }),
};

/**
 * POSTs one event to a webhook endpoint, signed with each of `secrets` at the current time
 * (docs/api/builders.md, "Events and webhooks"). Redirects are not followed (a 3xx is a failed attempt);
 * `publicOnly` refuses a connection to a private address whatever the name resolves to now.
 */
export function sendWebhook(
  target: { url: string; secrets: readonly string[] },
  event: { id: string; type: string; payload: string; deliveryId: string },
  options: { timeoutMs: number; publicOnly: boolean; now?: () => number },
): Promise<SendResult> {
  const url = new URL(target.url);
  const secure = url.protocol === "https:";
  const timestamp = Math.floor((options.now ?? Date.now)() / 1000);
  // An address literal is connected to without a lookup: checked here instead.
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  if (options.publicOnly && isIP(literal) && isPrivateAddress(literal))
    return Promise.resolve({ answered: false, failure: "refused-address" });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = (secure ? https : http).request(
      url,
      {
        method: "POST",
        agent: agents[secure ? "https:" : "http:"],
        ...(options.publicOnly ? { lookup: publicOnlyLookup } : {}),
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(event.payload),
          "user-agent": "Junction-Webhooks/1",
          [SIGNATURE_HEADER]: signatureHeader(target.secrets, timestamp, event.payload),
          "Junction-Event-Id": event.id,
          "Junction-Event-Type": event.type,
          "Junction-Delivery-Id": event.deliveryId,
        },
      },
      (response) => {
        let excerpt = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          if (excerpt.length < RESPONSE_EXCERPT_CHARS)
            excerpt = (excerpt + chunk).slice(0, RESPONSE_EXCERPT_CHARS);
        });
        response.on("error", () => finish({ answered: false, failure: "network" }));
        response.on("end", () => finish({ answered: true, status: response.statusCode ?? 0, excerpt }));
      },
    );
    const timer = setTimeout(() => {
      finish({ answered: false, failure: "timeout" });
      request.destroy();
    }, options.timeoutMs);
    request.on("error", (error: NodeJS.ErrnoException) =>
      finish({ answered: false, failure: failureOf(error) }),
    );
    request.end(event.payload);
  });
}

function failureOf(error: NodeJS.ErrnoException): SendFailure {
  if (error.code === "ERR_REFUSED_ADDRESS") return "refused-address";
  if (error.code === "ECONNREFUSED") return "connection-refused";
  if (error.code === "ENOTFOUND" || error.code === "EAI_AGAIN") return "dns";
  if (typeof error.code === "string" && (error.code.startsWith("ERR_TLS") || error.code.includes("CERT")))
    return "tls";
  return "network";
}
