/** Why a pool could not be followed through a block: it is read directly until it is read again. */
export class UnfollowableError extends Error {
  override name = "UnfollowableError";
}
