import { describe, expect, it } from "vitest";
import { JunctionError } from "../errors/junction-error.ts";
import { isPrivateAddress } from "./endpoint-address.ts";
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS, retryDelayMs } from "./retry-schedule.ts";
import { checkEndpointUrl } from "./webhook-endpoints.ts";

const strict = { allowHttp: false, allowPrivate: false };
const devnet = { allowHttp: true, allowPrivate: true };

async function refusal(url: string, policy = strict): Promise<string> {
  const error = await checkEndpointUrl(url, policy).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(JunctionError);
  expect((error as JunctionError).code).toBe("INVALID_REQUEST");
  return (error as JunctionError).issues![0]!.message;
}

describe("webhook endpoint URLs", () => {
  it("refuses loopback, private and other non-public addresses outside the devnet", async () => {
    for (const url of [
      "https://127.0.0.1/hooks",
      "https://10.0.0.1/hooks",
      "https://10.255.1.2:8443/hooks",
      "https://172.16.5.4/",
      "https://192.168.1.1/",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/",
      "https://0.0.0.0/",
      "https://[::1]/hooks",
      "https://[fd00::1]/",
      "https://[fe80::1]/",
      "https://[::ffff:10.0.0.1]/",
      "https://localhost/hooks",
      "https://api.localhost/hooks",
    ])
      expect(await refusal(url), url).toMatch(/private|loopback/);
  });

  it("takes https to a public address, and refuses plain http, credentials and fragments", async () => {
    expect(await checkEndpointUrl("https://1.1.1.1/hooks?x=1", strict)).toBe("https://1.1.1.1/hooks?x=1");
    expect(await refusal("http://1.1.1.1/hooks")).toMatch(/https/);
    expect(await refusal("https://user:pass@1.1.1.1/hooks")).toMatch(/credentials/);
    expect(await refusal("https://1.1.1.1/hooks#x")).toMatch(/fragment/);
    expect(await refusal("ftp://1.1.1.1/")).toMatch(/https/);
    expect(await refusal("not a url")).toMatch(/absolute/);
    expect(await refusal(`https://1.1.1.1/${"a".repeat(3000)}`)).toMatch(/2048/);
  });

  it("takes loopback and plain http where the operator allows them (the devnet)", async () => {
    expect(await checkEndpointUrl("http://127.0.0.1:9000/hooks", devnet)).toBe("http://127.0.0.1:9000/hooks");
  });

  it("classifies addresses as the ranges say, IPv4-mapped IPv6 included", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "192.168.0.10",
      "::1",
      "fc00::1",
      "::ffff:192.168.1.1",
      "nonsense",
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ["1.1.1.1", "8.8.8.8", "2606:4700:4700::1111", "::ffff:1.1.1.1"])
      expect(isPrivateAddress(address), address).toBe(false);
  });
});

describe("the retry schedule", () => {
  it("retries for more than 24 hours, then gives up", () => {
    const total = RETRY_DELAYS_SECONDS.reduce((sum, seconds) => sum + seconds, 0);
    expect(total * 0.8).toBeGreaterThan(24 * 3_600);
    expect(MAX_ATTEMPTS).toBe(12);
    expect(retryDelayMs(MAX_ATTEMPTS)).toBeUndefined();
  });

  it("jitters each delay by at most a fifth, and scales for tests", () => {
    expect(retryDelayMs(1, 1, () => 0)).toBe(4_000);
    expect(retryDelayMs(1, 1, () => 1)).toBe(6_000);
    expect(retryDelayMs(2, 1, () => 0.5)).toBe(30_000);
    expect(retryDelayMs(2, 0.001, () => 0.5)).toBe(30);
  });
});
