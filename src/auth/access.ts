import type { Db } from "../platform/database/connect.ts";
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

/** A question put to the viewer's roles and its answer: asked again of other grants, it tells whether they answer alike. */
export interface AskedOfRoles {
  answer: (grants: readonly Grant[]) => unknown;
  answered: string;
}

const uniqueSorted = (ids: string[]) => [...new Set(ids)].sort();

/**
 * What the viewer may see and do. Built once per request or socket; the viewer's roles are read once, lazily. Every
 * question goes through `ask`, so a decision can list what it asked of the roles (`asked`) and be reused for another
 * viewer whose roles answer those questions alike.
 */
export class Access {
  private grantsPromise: Promise<Grant[]> | undefined;

  constructor(
    private readonly db: Db,
    readonly viewer: Viewer | null,
    private readonly now: () => Date,
    /** Where the viewer's grants come from when not read alone (a batch shared by many viewers' decisions). */
    private readonly loadGrants?: (userId: string) => Promise<Grant[]>,
    /** Where the questions asked of the roles are written down, when someone wants to know. */
    private readonly asked?: AskedOfRoles[],
  ) {}

  get isStaff() {
    return this.viewer?.isStaff === true;
  }

  /** Staff and support read everything. */
  get readsAll() {
    return this.viewer !== null && (this.viewer.isStaff || this.viewer.isSupport);
  }

  private loaded(): Promise<Grant[]> {
    if (!this.viewer) return Promise.resolve([]);
    this.grantsPromise ??= this.loadGrants ? this.loadGrants(this.viewer.id) : grantsOf(this.db, this.viewer.id, this.now());
    return this.grantsPromise;
  }

  private async ask<T>(answer: (grants: readonly Grant[]) => T): Promise<T> {
    const value = answer(await this.loaded());
    this.asked?.push({ answer, answered: JSON.stringify(value) });
    return value;
  }

  grants(): Promise<readonly Grant[]> {
    return this.ask((grants) => grants);
  }

  /** True when the viewer holds `permission` on any of `scopes` (pass the object and its parents). */
  async can(permission: Permission, scopes: ScopeRef[]): Promise<boolean> {
    if (!this.viewer) return false;
    if (this.viewer.isStaff) return true;
    return this.ask((grants) =>
      grants.some(
        (grant) =>
          ROLE_PERMISSIONS[grant.role]?.includes(permission) &&
          scopes.some((scope) => scope.type === grant.scopeType && scope.id === grant.scopeId),
      ),
    );
  }

  async require(permission: Permission, scopes: ScopeRef[], message?: string): Promise<void> {
    if (!(await this.can(permission, scopes))) throw forbidden(message);
  }

  /** Ids of the objects of one kind on which the viewer holds any role (optionally one of `roles`), sorted. */
  scopeIds(type: ScopeType, roles?: readonly Role[]): Promise<string[]> {
    return this.ask((grants) => uniqueSorted(grants.filter((g) => g.scopeType === type && (!roles || roles.includes(g.role))).map((g) => g.scopeId)));
  }

  /** Ids of the projects of the customers on which the viewer holds a role that reaches them (CUSTOMER_PROJECT_ROLES), sorted. */
  projectsOfCustomers(): Promise<string[]> {
    return this.ask((grants) => uniqueSorted(grants.flatMap((g) => g.projectIds)));
  }

  /** Whether the viewer holds any role on one of `scopes`. */
  hasAnyRole(scopes: ScopeRef[]): Promise<boolean> {
    return this.ask((grants) => grants.some((g) => scopes.some((s) => s.type === g.scopeType && s.id === g.scopeId)));
  }
}
