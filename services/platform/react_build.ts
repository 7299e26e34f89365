/**
 * The portal renders pages with React's production build. React's npm packages pick their
 * build from `process.env.NODE_ENV` when they are first loaded, and Deno leaves it unset, which
 * means the development build (slower, more memory per page). `main.ts` imports this module
 * before anything that loads React; `--dev` keeps the development build for its warnings, and
 * a NODE_ENV set by the operator is left as it is. Tests load React without it (development).
 */
import process from "node:process";

process.env.NODE_ENV ??= Deno.args.includes("--dev") ? "development" : "production";
