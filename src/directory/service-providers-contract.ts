import type { Prisma } from "../generated/prisma/client.ts";
import { defineContract } from "../collections/contract.ts";
import { icontains } from "../platform/reads/text-match.ts";

export const SERVICE_PROVIDER_CONTRACT = defineContract<Prisma.ServiceProviderWhereInput, Prisma.ServiceProviderOrderByWithRelationInput>()({
  filters: {
    customerUuid: {
      kind: "uuids",
      rest: { customer_uuid: "uuid", customer: { url: "customer" } },
      description: "The provider's customer",
      where: (ids) => ({ customerId: { in: ids } }),
    },
    customerKeyword: {
      kind: "text",
      rest: "customer_keyword",
      description: "Substring of the customer's name or abbreviation, case-insensitive",
      where: (text) => ({ customer: { OR: [{ name: icontains(text) }, { abbreviation: icontains(text) }] } }),
    },
  },
  orderings: {
    customer_name: (direction) => ({ customer: { name: direction } }),
  },
  defaultOrder: ["customer_name"],
  tiebreak: [{ created: "asc" }, { id: "asc" }],
});
