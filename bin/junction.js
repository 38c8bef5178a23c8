#!/usr/bin/env node
// Runs the TypeScript sources directly (no build step), so `npm start` works right after `npm install`.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
