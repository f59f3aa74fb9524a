/** The ids of the records the rest of the demo is built on. */
export interface DemoAccounts {
  serviceProviderId: string;
  offeringId: string;
  planId: string;
  projectId: string;
  userIds: Record<string, string>;
  offeringUserIds: Record<string, string>;
}
