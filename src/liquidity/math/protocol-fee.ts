/**
 * V4 protocol fees (v4-core ProtocolFeeLibrary): slot0 packs one 12-bit fee per direction, in pips.
 */

/** The protocol fee of zero-for-one swaps: the low 12 bits. */
export function getZeroForOneFee(protocolFee: number): number {
  return protocolFee & 0xfff;
}

/** The protocol fee of one-for-zero swaps: the next 12 bits. */
export function getOneForZeroFee(protocolFee: number): number {
  return (protocolFee >>> 12) & 0xfff;
}

/**
 * The total swap fee a V4 pool charges on the input, in pips: the protocol fee is taken first and the LP
 * fee from the rest, `protocolFee + lpFee - floor(protocolFee * lpFee / 1e6)`
 * (ProtocolFeeLibrary.calculateSwapFee; Pool.swap uses the bare LP fee when the protocol fee is zero,
 * which this formula also gives).
 */
export function calculateSwapFee(directionalProtocolFee: number, lpFee: number): number {
  const protocolFee = directionalProtocolFee & 0xfff;
  const fee = lpFee & 0xffffff;
  return protocolFee + fee - Math.floor((protocolFee * fee) / 1_000_000);
}
