import type { Db } from "../platform/database.ts";
import { forbidden } from "../platform/errors.ts";
import { type Grant, grantsOf, type ScopeType } from "./grants.ts";
import { type Permission, ROLE_PERMISSIONS, type Role } from "./permissions.ts";

export type { ScopeType };

export interface Viewer {
  id: string;
  username: string;
  isStaff: boolean;
  isSupport: boolean;
}

export interface ScopeRef {
  type: ScopeType;
  id: string;
}

/** Where an offering's provider-side roles are held: the offering itself and its customer. */
export const offeringProviderScopes = (offering: { id: string; customerId: string }): ScopeRef[] => [
  { type: "OFFERING", id: offering.id },
  { type: "CUSTOMER", id: offering.customerId },
];

/** The same for an order, resource or limit, which names its offering by id. */
export const allocationProviderScopes = (a: { offeringId: string; offering: { customerId: string } }): ScopeRef[] =>
  offeringProviderScopes({ id: a.offeringId, customerId: a.offering.customerId });

/**
 * What the viewer may see and do. Built once per request or socket; the viewer's roles are read once, lazily.
 */
export class Access {
  private grantsPromise: Promise<Grant[]> | undefined;

  constructor(
    private readonly db: Db,
    readonly viewer: Viewer | null,
    private readonly now: () => Date,
    /** Where the viewer's grants come from when not read alone (a batch shared by many viewers' decisions). */
    private readonly loadGrants?: (userId: string) => Promise<Grant[]>,
  ) {}

  get isStaff() {
    return this.viewer?.isStaff === true;
  }

  /** Staff and support read everything. */
  get readsAll() {
    return this.viewer !== null && (this.viewer.isStaff || this.viewer.isSupport);
  }

  grants(): Promise<Grant[]> {
    if (!this.viewer) return Promise.resolve([]);
    this.grantsPromise ??= this.loadGrants ? this.loadGrants(this.viewer.id) : grantsOf(this.db, this.viewer.id, this.now());
    return this.grantsPromise;
  }

  /** True when the viewer holds `permission` on any of `scopes` (pass the object and its parents). */
  async can(permission: Permission, scopes: ScopeRef[]): Promise<boolean> {
    if (!this.viewer) return false;
    if (this.viewer.isStaff) return true;
    const grants = await this.grants();
    return grants.some(
      (grant) =>
        ROLE_PERMISSIONS[grant.role]?.includes(permission) &&
        scopes.some((scope) => scope.type === grant.scopeType && scope.id === grant.scopeId),
    );
  }

  async require(permission: Permission, scopes: ScopeRef[], message?: string): Promise<void> {
    if (!(await this.can(permission, scopes))) throw forbidden(message);
  }

  /** Ids of the objects of one kind on which the viewer holds any role (optionally one of `roles`). */
  async scopeIds(type: ScopeType, roles?: readonly Role[]): Promise<string[]> {
    const grants = await this.grants();
    return [...new Set(grants.filter((g) => g.scopeType === type && (!roles || roles.includes(g.role))).map((g) => g.scopeId))];
  }

  /** Ids of the projects of the customers on which the viewer holds one of `roles`. */
  async projectsOfCustomers(roles: readonly Role[]): Promise<string[]> {
    const grants = await this.grants();
    const held = grants.filter((g) => g.scopeType === "CUSTOMER" && roles.includes(g.role));
    return [...new Set(held.flatMap((g) => g.projectIds))];
  }

  /** Whether the viewer holds any role on one of `scopes`. */
  async hasAnyRole(scopes: ScopeRef[]): Promise<boolean> {
    const grants = await this.grants();
    return grants.some((g) => scopes.some((s) => s.type === g.scopeType && s.id === g.scopeId));
  }
}
