/** GraphQL fragments whose aliases are Waldur's field names: the selection is the serializer. */
const fragment = (name: string, type: string, body: string) => ({ name, text: `fragment ${name} on ${type} {${body}}` });

export const FRAGMENTS = [
  fragment(
    "OfferingUserRest",
    "OfferingUser",
    `url uuid username state: stateLabel
     offering: offeringUrl offering_uuid: offeringUuid offering_name: offeringName
     user: userUrl user_uuid: userUuid user_username: userUsername user_full_name: userFullName
     user_first_name: userFirstName user_last_name: userLastName user_email: userEmail
     customer_uuid: customerUuid customer_name: customerName is_restricted: isRestricted
     service_provider_comment: serviceProviderComment service_provider_comment_url: serviceProviderCommentUrl
     backend_metadata: backendMetadata has_consent: hasConsent requires_reconsent: requiresReconsent created modified`,
  ),
  fragment(
    "UserRest",
    "User",
    `url uuid username email first_name: firstName last_name: lastName full_name: fullName
     is_staff: isStaff is_support: isSupport is_active: isActive date_joined: created`,
  ),
  fragment("CustomerRest", "Customer", `url uuid name abbreviation email created`),
  fragment(
    "ProjectRest",
    "Project",
    `url uuid name description created customer: customerUrl customer_uuid: customerUuid customer_name: customerName`,
  ),
  fragment(
    "ServiceProviderRest",
    "ServiceProvider",
    `url uuid description created customer: customerUrl customer_uuid: customerUuid customer_name: customerName`,
  ),
  fragment(
    "OfferingRest",
    "Offering",
    `url uuid name type description state: stateLabel plugin_options: pluginOptions created
     customer: customerUrl customer_uuid: customerUuid customer_name: customerName
     components { uuid type name billing_type: billingTypeLabel measured_unit: measuredUnit
                  limit_period: limitPeriod limit_amount: limitAmount }
     plans { uuid name unit_price: unitPrice unit archived }`,
  ),
  fragment("EventRest", "Event", `uuid created event_type: eventType message context`),
  fragment(
    "TermsOfServiceRest",
    "OfferingTermsOfService",
    `uuid offering_uuid: offeringUuid offering_name: offeringName terms_of_service: termsOfService
     terms_of_service_link: termsOfServiceLink version is_active: isActive requires_reconsent: requiresReconsent
     grace_period_days: gracePeriodDays
     user_consent: userConsent { uuid version agreement_date: agreementDate is_revoked: isRevoked }
     has_user_consent: hasUserConsent created modified`,
  ),
  fragment(
    "ConsentRest",
    "UserOfferingConsent",
    `uuid user_uuid: userUuid offering_uuid: offeringUuid agreement_date: agreementDate version
     revocation_date: revocationDate created modified user_username: userUsername user_full_name: userFullName
     user_email: userEmail offering_name: offeringName offering_url: offeringUrl has_consent: hasConsent
     requires_reconsent: requiresReconsent`,
  ),
];
