import { readFileSync } from "node:fs";
import { type Hex, isHex } from "viem";
import { OperatorError } from "./cli-errors.ts";
import { decryptKeystore } from "./keystore.ts";

/** The deployer's key: JUNCTION_DEPLOYER_KEY, or a keystore file with JUNCTION_KEYSTORE_PASSWORD. */
export function deployerKey(keystore: string | undefined, env: NodeJS.ProcessEnv): Hex {
  if (keystore) {
    const password = env.JUNCTION_KEYSTORE_PASSWORD;
    if (password === undefined)
      throw new OperatorError("--keystore needs JUNCTION_KEYSTORE_PASSWORD in the environment");
    let json: string;
    try {
      json = readFileSync(keystore, "utf8");
    } catch (error) {
      throw new OperatorError(`cannot read keystore ${keystore}: ${(error as Error).message}`);
    }
    return decryptKeystore(json, password);
  }
  const raw = env.JUNCTION_DEPLOYER_KEY?.trim();
  if (!raw)
    throw new OperatorError("set JUNCTION_DEPLOYER_KEY (a hex private key) or pass --keystore <file>");
  const key = (raw.startsWith("0x") ? raw : `0x${raw}`) as Hex;
  if (!isHex(key) || key.length !== 66)
    throw new OperatorError("JUNCTION_DEPLOYER_KEY must be 32 bytes of hex");
  return key;
}
