import { createDecipheriv, pbkdf2Sync, scryptSync } from "node:crypto";
import { concat, type Hex, keccak256, toHex } from "viem";
import { OperatorError } from "./cli-errors.ts";

type KeystoreV3 = {
  version: 3;
  crypto: {
    cipher: string;
    cipherparams: { iv: string };
    ciphertext: string;
    kdf: "scrypt" | "pbkdf2";
    kdfparams: { dklen: number; salt: string; n?: number; r?: number; p?: number; c?: number; prf?: string };
    mac: string;
  };
};

/**
 * Decrypts a Web3 Secret Storage (v3) keystore file, as geth, Foundry (`cast wallet`) and most wallets
 * write it: scrypt or PBKDF2-HMAC-SHA256, AES-128-CTR, and the Keccak MAC checked before decrypting (a
 * wrong password is reported as such, never as a wrong key).
 */
export function decryptKeystore(json: string, password: string): Hex {
  let keystore: KeystoreV3;
  try {
    keystore = JSON.parse(json) as KeystoreV3;
  } catch {
    throw new OperatorError("the keystore file is not JSON");
  }
  const crypto = keystore.crypto ?? (keystore as unknown as { Crypto: KeystoreV3["crypto"] }).Crypto;
  if (keystore.version !== 3 || !crypto || crypto.cipher !== "aes-128-ctr")
    throw new OperatorError("the keystore is not a version 3 (aes-128-ctr) keystore");
  const { kdfparams: params } = crypto;
  const salt = Buffer.from(params.salt, "hex");
  let derived: Buffer;
  if (crypto.kdf === "scrypt") {
    const [N, r, p] = [params.n ?? 0, params.r ?? 0, params.p ?? 0];
    try {
      derived = scryptSync(password, salt, params.dklen, { N, r, p, maxmem: 1024 ** 3 });
    } catch {
      // OpenSSL refuses N ≥ 2^(16·r) (e.g. n=262144 with r=1); geth's and Foundry's keystores use r=8.
      throw new OperatorError(`the keystore's scrypt parameters (n=${N}, r=${r}, p=${p}) are not supported`);
    }
  } else if (crypto.kdf === "pbkdf2" && params.prf === "hmac-sha256") {
    derived = pbkdf2Sync(password, salt, params.c ?? 0, params.dklen, "sha256");
  } else {
    throw new OperatorError(`unsupported keystore key derivation ${crypto.kdf}`);
  }
  const ciphertext = Buffer.from(crypto.ciphertext, "hex");
  const mac = keccak256(concat([toHex(derived.subarray(16, 32)), toHex(ciphertext)]));
  if (mac.slice(2) !== crypto.mac.toLowerCase())
    throw new OperatorError("wrong keystore password (the keystore's MAC does not match)");
  const decipher = createDecipheriv(
    "aes-128-ctr",
    derived.subarray(0, 16),
    Buffer.from(crypto.cipherparams.iv, "hex"),
  );
  return toHex(Buffer.concat([decipher.update(ciphertext), decipher.final()]));
}
