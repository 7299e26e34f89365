import assert from "node:assert/strict";
import { classifyConnectError, connackFailure } from "./mqtt_connect.ts";

Deno.test("connackFailure() words MQTT 3.1.1 return codes and MQTT 5 reason codes alike", () => {
  const codes: [number, string][] = [
    [4, "bad_credentials"],
    [0x86, "bad_credentials"],
    [5, "not_authorized"],
    [0x87, "not_authorized"],
    [2, "client_id_rejected"],
    [3, "server_unavailable"],
    [1, "protocol_refused"],
    [0x99, "refused"],
  ];
  for (const [code, failure] of codes) assert.equal(connackFailure(code), failure, `code ${code}`);
});

Deno.test("classifyConnectError() tells TLS refusals, unreachable brokers and timeouts apart", () => {
  const cases: [unknown, string][] = [
    [{ code: 5, message: "Connection refused: Not authorized" }, "not_authorized"],
    [
      { code: "ERR_SSL_TLSV1_ALERT_UNKNOWN_CA", message: "received fatal alert: UnknownCA" },
      "tls_unknown_ca",
    ],
    [
      { code: "ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED", message: "x" },
      "tls_certificate_required",
    ],
    [
      { code: "UNABLE_TO_VERIFY_LEAF_SIGNATURE", message: "unable to verify" },
      "tls_server_untrusted",
    ],
    [
      { code: "ERR_TLS_CERT_ALTNAME_INVALID", message: "Hostname/IP does not match" },
      "tls_server_untrusted",
    ],
    [{ code: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:1" }, "unreachable"],
    [{ code: "ENOTFOUND", message: "getaddrinfo ENOTFOUND nowhere" }, "unreachable"],
    [{ message: "connack timeout" }, "timeout"],
    [new Error("something else"), "refused"],
    [null, "refused"],
  ];
  for (const [error, want] of cases) {
    assert.equal(classifyConnectError(error), want, JSON.stringify(error));
  }
});
