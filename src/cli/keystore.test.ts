import { describe, expect, it } from "vitest";
import { decryptKeystore } from "./keystore.ts";

/** The Web3 Secret Storage definition's test vectors (password "testpassword"). */
const KEY = "0x7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d";
const PBKDF2 = JSON.stringify({
  crypto: {
    cipher: "aes-128-ctr",
    cipherparams: { iv: "6087dab2f9fdbbfaddc31a909735c1e6" },
    ciphertext: "5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46",
    kdf: "pbkdf2",
    kdfparams: {
      c: 262144,
      dklen: 32,
      prf: "hmac-sha256",
      salt: "ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd",
    },
    mac: "517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2",
  },
  id: "3198bc9c-6672-5ab3-d995-4942343ae5b6",
  version: 3,
});
const SCRYPT = JSON.stringify({
  crypto: {
    cipher: "aes-128-ctr",
    cipherparams: { iv: "83dbcc02d8ccb40e466191a123791e0e" },
    ciphertext: "d172bf743a674da9cdad04534d56926ef8358534d458fffccd4e6ad2fbde479c",
    kdf: "scrypt",
    kdfparams: {
      dklen: 32,
      n: 262144,
      r: 1,
      p: 8,
      salt: "ab0c7876052600dd703518d6fc3fe8984592145b591fc8fb5c6d43190334ba19",
    },
    mac: "2103ac29920d71da29f15d75b4a16dbe95cfd7ff8faea1056c33131d846e3097",
  },
  id: "3198bc9c-6672-5ab3-d995-4942343ae5b6",
  version: 3,
});

describe("decryptKeystore", () => {
  it("decrypts the standard PBKDF2 vector, and says so when OpenSSL cannot run a vector's scrypt", () => {
    expect(decryptKeystore(PBKDF2, "testpassword")).toBe(KEY);
    // The definition's scrypt vector uses r=1 with n=2^18, past OpenSSL's limit n < 2^(16·r).
    expect(() => decryptKeystore(SCRYPT, "testpassword")).toThrow(/scrypt parameters \(n=262144, r=1, p=8\)/);
  });
  it("refuses a wrong password by the MAC, and files that are not v3 keystores", () => {
    expect(() => decryptKeystore(PBKDF2, "wrong")).toThrow(/wrong keystore password/);
    expect(() => decryptKeystore("{}", "x")).toThrow(/not a version 3/);
    expect(() => decryptKeystore("nope", "x")).toThrow(/not JSON/);
  });
});
