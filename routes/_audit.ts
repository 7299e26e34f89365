/** The acting person of a request, for the audit trail of the changes it makes. */
import type { Context } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { clientAddress } from "./_http.ts";

/**
 * `deps` naming the signed-in user and the request's address (as `clientAddress` derives it,
 * `TRUST_PROXY` followed) as the actor: the services stamp their commits with it.
 */
export function acting<E extends AppEnv>(c: Context<E>, deps: Deps): Deps {
  const user = c.var.user;
  if (!user) return deps;
  return {
    ...deps,
    actor: {
      id: user.id,
      email: user.email,
      address: clientAddress(c, deps.config.trustProxy),
      ...(c.var.apiKey ? { api_key: c.var.apiKey.id } : {}),
    },
  };
}
