/** Retrying a request Junction refused for capacity, after the `Retry-After` it sent. Off unless asked. */
export type RetryPolicy = {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Never wait longer than this for one retry; a longer Retry-After is returned to the caller as an error. */
  maxWaitSeconds: number;
};

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/**
 * A fetch that honours `Retry-After`: a 429 (refused before any work, so safe for every method) and a 503
 * on a GET are sent again after the seconds the server asked for, within the policy. Anything else, and
 * any answer past the policy, is returned as it came.
 */
export function retryingFetch(fetchImpl: typeof fetch, policy: RetryPolicy | undefined): typeof fetch {
  if (!policy || policy.attempts <= 1) return fetchImpl;
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 1; ; attempt++) {
      const response = await fetchImpl(request.clone());
      const retryAfter = response.headers.get("retry-after");
      const retryable = response.status === 429 || (response.status === 503 && request.method === "GET");
      if (!retryable || retryAfter === null || !/^[0-9]+$/.test(retryAfter)) return response;
      const seconds = Number(retryAfter);
      if (attempt >= policy.attempts || seconds > policy.maxWaitSeconds) return response;
      await response.body?.cancel();
      await sleep(seconds);
    }
  };
}
