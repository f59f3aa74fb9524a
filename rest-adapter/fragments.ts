/** GraphQL fragments whose aliases are Waldur's field names: the selection is the serializer. */
const fragment = (name: string, type: string, body: string) => ({ name, text: `fragment ${name} on ${type} {${body}}` });

/** Routes include only the fragments their document names, so the nested link fields are spelled out. */
const MAINTENANCE_OFFERING_FIELDS = `url uuid maintenance: maintenanceUrl offering: offeringUrl offering_name: offeringName
  impact_level: impactLevelCode impact_level_display: impactLevelDisplay impact_description: impactDescription`;

const PUBLIC_MAINTENANCE_FIELDS = `url uuid name message maintenance_type: maintenanceTypeCode
  maintenance_type_display: maintenanceTypeDisplay external_reference_url: externalReferenceUrl state: stateLabel
  scheduled_start: scheduledStart scheduled_end: scheduledEnd actual_start: actualStart actual_end: actualEnd
  service_provider_name: serviceProviderName affected_offerings: affectedOfferings { ${MAINTENANCE_OFFERING_FIELDS} }`;

export const FRAGMENTS = [
  fragment(
    "AgentProcessorRest",
    "AgentProcessor",
    `uuid url service: serviceUuid service_name: serviceName name backend_type: backendType
     backend_version: backendVersion last_run: lastRun created modified`,
  ),
  fragment(
    "AgentServiceRest",
    "AgentService",
    `uuid url identity: identityUuid identity_name: identityName name mode state: stateLabel statistics
     processors { ...AgentProcessorRest } created modified`,
  ),
  fragment(
    "AgentIdentityRest",
    "AgentIdentity",
    `uuid url offering: offeringUuid offering_name: offeringName created_by: createdByUuid name version
     dependencies { package version } config_file_path: configFilePath config_file_content: configFileContent
     last_restarted: lastRestarted compatibility { status message minimum_required: minimumRequired }
     services { ...AgentServiceRest } created modified`,
  ),
  fragment(
    "EventSubscriptionRest",
    "EventSubscription",
    `uuid url user: userUrl user_uuid: userUuid user_username: userUsername user_full_name: userFullName created modified
     source_ip: sourceIp description observable_objects: observableObjects { object_type: objectType }`,
  ),
  fragment(
    "EventSubscriptionQueueRest",
    "EventSubscriptionQueue",
    `uuid url event_subscription: eventSubscriptionUrl event_subscription_uuid: eventSubscriptionUuid
     offering_uuid: offeringUuid object_type: objectType queue_name: queueName vhost created`,
  ),
  fragment(
    "ComponentUsageRest",
    "ComponentUsage",
    `uuid created description type name measured_unit: measuredUnit usage date recurring
     missing_usage_policy: missingUsagePolicyLabel billing_period: billingPeriod
     resource_uuid: resourceUuid resource_name: resourceName offering_uuid: offeringUuid offering_name: offeringName
     project_uuid: projectUuid project_name: projectName customer_uuid: customerUuid customer_name: customerName`,
  ),
  fragment(
    "ComponentUserUsageRest",
    "ComponentUserUsage",
    `uuid user: userUrl username component_usage: componentUsageUrl usage measured_unit: measuredUnit description
     backend_id: backendId created modified date: componentUsageDate billing_period: billingPeriod component_type: componentType
     resource_uuid: resourceUuid resource_name: resourceName offering_uuid: offeringUuid offering_name: offeringName
     project_uuid: projectUuid project_name: projectName customer_uuid: customerUuid customer_name: customerName`,
  ),
  fragment(
    "ComponentUserUsageLimitRest",
    "ComponentUserUsageLimit",
    `uuid url resource: resourceUrl resource_uuid: resourceUuid resource_name: resourceName component: componentUuid
     component_type: componentType user: userUrl user_uuid: userUuid username limit created modified`,
  ),
  fragment(
    "SshKeyRest",
    "SshKey",
    `url uuid name public_key: publicKey fingerprint_md5: fingerprintMd5 fingerprint_sha256: fingerprintSha256
     fingerprint_sha512: fingerprintSha512 type
     is_shared: isShared user_uuid: userUuid`,
  ),
  fragment(
    "OrderRest",
    "Order",
    `url uuid type: typeLabel state: stateLabel attributes limits cost can_terminate: canTerminate auto_approved: autoApproved
     offering: offeringUrl offering_uuid: offeringUuid offering_name: offeringName offering_type: offeringType
     offering_description: offeringDescription offering_plugin_options: offeringPluginOptions
     provider_uuid: providerUuid provider_name: providerName provider_slug: providerSlug provider_description: providerDescription
     plan: planUrl plan_uuid: planUuid plan_name: planName plan_unit: planUnit
     new_plan_uuid: planUuid new_plan_name: planName new_cost_estimate: cost
     resource_uuid: resourceUuid marketplace_resource_uuid: resourceUuid resource_name: resourceName
     project: projectUrl project_uuid: projectUuid project_name: projectName project_slug: projectSlug
     project_description: projectDescription customer_uuid: customerUuid customer_name: customerName customer_slug: customerSlug
     created_by_username: createdByUsername created_by_full_name: createdByFullName created_by_email: createdByEmail
     consumer_reviewed_by: consumerReviewedByUsername consumer_reviewed_by_username: consumerReviewedByUsername
     consumer_reviewed_by_full_name: consumerReviewedByFullName consumer_reviewed_at: consumerReviewedAt
     provider_reviewed_by: providerReviewedByUsername provider_reviewed_by_username: providerReviewedByUsername
     provider_reviewed_by_full_name: providerReviewedByFullName provider_reviewed_at: providerReviewedAt
     error_message: errorMessage error_traceback: errorTraceback backend_id: backendId request_comment: requestComment
     start_date: startDate completed_at: completedAt created modified`,
  ),
  fragment(
    "ResourceRest",
    "Resource",
    `url uuid name slug state: stateLabel backend_id: backendId attributes limits current_usages: currentUsages
     restrict_member_access: restrictMemberAccess paused downscaled last_sync: lastSync end_date_updated_at: endDateUpdatedAt
     offering_backend_id: offeringBackendId project_slug: projectSlug customer_slug: customerSlug project_end_date: projectEndDate
     backend_metadata: backendMetadata error_message: errorMessage end_date: endDate scope: scopeUrl
     offering: offeringUrl offering_uuid: offeringUuid offering_name: offeringName offering_type: offeringType
     offering_plugin_options: offeringPluginOptions provider_uuid: providerUuid provider_name: providerName
     plan: planUrl plan_uuid: planUuid plan_name: planName
     project: projectUrl project_uuid: projectUuid project_name: projectName project_description: projectDescription
     customer_uuid: customerUuid customer_name: customerName created modified
     offering_slug: offeringSlug offering_description: offeringDescription offering_state: offeringStateLabel
     offering_shared: offeringShared offering_billable: offeringBillable is_usage_based: isUsageBased is_limit_based: isLimitBased
     offering_components: offeringComponents { uuid type name billing_type: billingTypeLabel measured_unit: measuredUnit
                                               limit_period: limitPeriod limit_amount: limitAmount }
     provider_slug: providerSlug provider_description: providerDescription plan_unit: planUnit
     project_effective_end_date: projectEffectiveEndDate project_is_in_grace_period: projectIsInGracePeriod
     resource_effective_end_date: resourceEffectiveEndDate has_api_keys: hasApiKeys
     usage_limit_restriction: usageLimitRestriction username user_requires_reconsent: userRequiresReconsent`,
  ),
  fragment(
    "OfferingUserRest",
    "OfferingUser",
    `url uuid username state: stateLabel runtime_state: runtimeStateLabel
     offering: offeringUrl offering_uuid: offeringUuid offering_name: offeringName offering_has_active_tos: offeringHasActiveTos
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
     is_staff: isStaff is_support: isSupport is_active: isActive date_joined: created
     has_usable_password: hasUsablePassword registration_method: registrationMethod native_name: nativeName
     job_title: jobTitle phone_number: phoneNumber organization description civil_number: civilNumber
     agreement_date: agreementDate`,
  ),
  fragment(
    "CustomerRest",
    "Customer",
    `url uuid name slug abbreviation email created display_name: displayName accounting_start_date: accountingStartDate
     projects_count: projectsCount users_count: usersCount is_service_provider: isServiceProvider
     service_provider: serviceProviderUrl service_provider_uuid: serviceProviderUuid native_name: nativeName
     contact_details: contactDetails agreement_number: agreementNumber registration_code: registrationCode
     backend_id: backendId archived organization_groups: organizationGroups`,
  ),
  fragment(
    "ProjectRest",
    "Project",
    `url uuid name slug description created end_date: endDate end_date_updated_at: endDateUpdatedAt start_date: startDate
     backend_id: backendId is_removed: isRemoved resources_count: resourcesCount is_industry: isIndustry
     oecd_fos_2007_code: oecdFos2007Code oecd_fos_2007_label: oecdFos2007Label
     customer: customerUrl customer_uuid: customerUuid customer_name: customerName customer_slug: customerSlug
     customer_abbreviation: customerAbbreviation customer_native_name: customerNativeName`,
  ),
  fragment(
    "ServiceProviderRest",
    "ServiceProvider",
    `url uuid description created customer: customerUrl customer_uuid: customerUuid customer_name: customerName
     customer_abbreviation: customerAbbreviation customer_slug: customerSlug customer_native_name: customerNativeName
     offering_count: offeringCount organization_groups: organizationGroups`,
  ),
  fragment(
    "OfferingRest",
    "Offering",
    `url uuid name slug type description state: stateLabel plugin_options: pluginOptions partitions backend_id: backendId created
     customer: customerUrl customer_uuid: customerUuid customer_name: customerName
     shared billable attributes order_count: orderCount total_customers: totalCustomers total_cost: totalCost
     total_cost_estimated: totalCostEstimated
     components { uuid type name billing_type: billingTypeLabel measured_unit: measuredUnit
                  limit_period: limitPeriod limit_amount: limitAmount offering_uuid: offeringUuid }
     plans { url uuid name unit_price: unitPrice unit archived resources_count: resourcesCount }`,
  ),
  fragment(
    "ProviderPlanDetailsRest",
    "OfferingPlan",
    `url uuid name is_active: isActive init_price: initPrice switch_price: switchPrice organization_groups: organizationGroups
     components offering: offeringUrl prices future_prices: futurePrices quotas resources_count: resourcesCount
     plan_type: planType minimal_price: minimalPrice archived unit_price: unitPrice unit: billingUnit`,
  ),
  fragment("EventRest", "Event", `uuid created event_type: eventType message context`),
  fragment("MaintenanceAnnouncementOfferingRest", "MaintenanceAnnouncementOffering", MAINTENANCE_OFFERING_FIELDS),
  fragment(
    "MaintenanceAnnouncementRest",
    "MaintenanceAnnouncement",
    `${PUBLIC_MAINTENANCE_FIELDS}
     internal_notes: internalNotes service_provider: serviceProviderUrl created_by: createdByUrl backend_id: backendId
     overrun_minutes: overrunMinutes start_delta_minutes: startDeltaMinutes timing_bucket: timingBucketLabel`,
  ),
  fragment("PublicMaintenanceAnnouncementRest", "PublicMaintenanceAnnouncement", PUBLIC_MAINTENANCE_FIELDS),
  fragment(
    "AdminAnnouncementRest",
    "AdminAnnouncement",
    `uuid description active_from: activeFrom active_to: activeTo is_active: isActive type: typeLabel created
     maintenance_uuid: maintenanceUuid maintenance_name: maintenanceName maintenance_type: maintenanceTypeCode
     maintenance_state: maintenanceStateLabel maintenance_scheduled_start: maintenanceScheduledStart
     maintenance_scheduled_end: maintenanceScheduledEnd maintenance_service_provider: maintenanceServiceProvider
     maintenance_affected_offerings: maintenanceAffectedOfferings {
       uuid name impact_level: impactLevelCode impact_level_display: impactLevelDisplay impact_description: impactDescription }
     maintenance_external_reference_url: maintenanceExternalReferenceUrl`,
  ),
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
     user_email: userEmail offering_name: offeringName offering_slug: offeringSlug offering_url: offeringUrl
     has_consent: hasConsent requires_reconsent: requiresReconsent collected_attributes: collectedAttributes`,
  ),
];
