/**
 * `@peculiar/x509` with the Reflect metadata polyfill it needs loaded first: import X.509
 * through this module, never the package directly.
 */
import "reflect-metadata";
export * from "@peculiar/x509";
