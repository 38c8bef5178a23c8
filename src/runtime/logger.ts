import { pino } from "pino";
import type { Config } from "../config/config.ts";

export type Logger = pino.Logger;

/** Structured JSON logs on stdout (operators' scrapers expect them); human progress goes to stderr. */
export function createLogger(level: Config["logLevel"]): Logger {
  return pino({ level, base: { service: "junction" } });
}
