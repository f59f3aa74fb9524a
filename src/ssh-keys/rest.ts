import { COLLECTIONS } from "../collections/rest-paths.ts";
import { SSH_KEY_CONTRACT } from "./contract.ts";
import { defineBody, link, text } from "../../rest-adapter/body-contract.ts";
import { readFilters, readOrdering } from "../../rest-adapter/collection-query.ts";
import { compact } from "../../rest-adapter/input.ts";
import type { RouteSpec } from "../../rest-adapter/route.ts";
import { createRoute, deleteRoute, listRoute, retrieveRoute } from "../../rest-adapter/common-routes.ts";
import { type RestSurface, restFragment } from "../../rest-adapter/surface.ts";
import { sshKeyCollection } from "./schema.ts";

const SSH_KEY_REST_FRAGMENT = restFragment(
  "SshKeyRest",
  "SshKey",
  `url uuid name public_key: publicKey fingerprint_md5: fingerprintMd5 fingerprint_sha256: fingerprintSha256
   fingerprint_sha512: fingerprintSha512 type
   is_shared: isShared user_uuid: userUuid`,
);

const KEYS = `/api/${COLLECTIONS.sshKey}`;

const KEY_CREATE = defineBody({
  public_key: text({ required: true, description: 'OpenSSH public key line: "type base64 [comment]"' }),
  name: text({ absent: [null], description: "Default: the key's comment (also when null)" }),
  user: link("user", { as: "userUuid", absent: [null, ""], description: "Staff only: the user the key is for (default: the caller)" }),
});

const sshKeyRoutes: RouteSpec[] = [
  listRoute({ path: `${KEYS}/`, summary: "List SSH public keys (own; staff and support all)", collection: sshKeyCollection }),
  createRoute(`${KEYS}/`, "Add an SSH public key: {public_key, name?} (staff may name another `user`)", "createSshKey", "SshKeyRest", KEY_CREATE),
  retrieveRoute(KEYS, "Retrieve an SSH public key", sshKeyCollection),
  deleteRoute(KEYS, "Delete an SSH public key (its owner or staff)", sshKeyCollection),
  {
    method: "GET",
    path: `/api/${COLLECTIONS.serviceProvider}/:uuid/keys/`,
    summary: "SSH keys of the members of projects with a live resource of the provider's offerings",
    document: `query($uuid: ID!, $first: Int, $offset: Int, $filter: SshKeyFilter, $orderBy: [SshKeyOrder!]) {
      serviceProviderKeys(uuid: $uuid, first: $first, offset: $offset, filter: $filter, orderBy: $orderBy) { totalCount nodes { ...SshKeyRest } } }`,
    variables: ({ params, query }) =>
      compact({ uuid: params.uuid, filter: readFilters(SSH_KEY_CONTRACT, query), orderBy: readOrdering(SSH_KEY_CONTRACT, query) }),
    kind: "list",
    contract: SSH_KEY_CONTRACT,
  },
];

export const sshKeyRest: RestSurface = { routes: sshKeyRoutes, fragments: [SSH_KEY_REST_FRAGMENT] };
