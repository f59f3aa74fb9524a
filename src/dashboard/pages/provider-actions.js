import { describeFailure, gql } from "./api.js";
import { byId, h, replaceChildren } from "./dom.js";

/** Each mutation's union members that are not failures; anything else the server answers is a typed failure. */
const FAILURE = "__typename ... on Error { message code }";
const FIELD_ERRORS = "... on ValidationError { fields { path message } }";

const CHOICES = `query ProviderChoices {
  serviceProviders(first: 50) { nodes { uuid customer { uuid name } } }
  offerings(first: 100, filter: { state: [ACTIVE, PAUSED] }) { nodes { uuid name customer { uuid } } }
}`;

const CREATE_ANNOUNCEMENT = `mutation Create($input: CreateMaintenanceAnnouncementInput!) {
  result: createMaintenanceAnnouncement(input: $input) { ... on MaintenanceAnnouncement { id uuid } ${FAILURE} ${FIELD_ERRORS} }
}`;
const LINK_OFFERING = `mutation Link($input: CreateMaintenanceAnnouncementOfferingInput!) {
  result: createMaintenanceAnnouncementOffering(input: $input) { ... on MaintenanceAnnouncementOffering { uuid } ${FAILURE} ${FIELD_ERRORS} }
}`;
const SCHEDULE = `mutation Schedule($input: ScheduleMaintenanceInput!) {
  result: scheduleMaintenance(input: $input) { ... on MaintenanceAnnouncement { uuid state } ... on MaintenanceTransitionError { currentState allowedFrom } ${FAILURE} }
}`;
const PUBLISH_TERMS = `mutation PublishTerms($input: PublishTermsOfServiceInput!) {
  result: publishOfferingTermsOfService(input: $input) { ... on OfferingTermsOfService { id uuid version } ${FAILURE} ${FIELD_ERRORS} }
}`;

/** A failed step: its typed failure, said as one line. */
class StepFailed extends Error {}

/** Runs one mutation; answers its result, or throws StepFailed with the typed failure (`message` is on every Error). */
async function step(document, input, succeeded) {
  const { result } = await gql(document, { input });
  if (result?.__typename !== succeeded) throw new StepFailed(describeFailure(result ?? { __typename: "Error", message: "No answer." }));
  return result;
}

/** Local date and time from a datetime-local field as an ISO instant. */
const instant = (value) => (value ? new Date(value).toISOString() : "");

/** Scheduling a maintenance announcement for offerings, and publishing a new version of an offering's terms. */
export function providerActions({ onDone }) {
  const maintenanceForm = byId("maintenance-form");
  const termsForm = byId("terms-form");
  let choices = { serviceProviders: [], offerings: [] };

  async function refresh() {
    const data = await gql(CHOICES).catch(() => null);
    if (!data) return;
    choices = { serviceProviders: data.serviceProviders.nodes, offerings: data.offerings.nodes };
    const providers = new Set(choices.serviceProviders.map((provider) => provider.customer.uuid));
    const own = choices.offerings.filter((offering) => providers.has(offering.customer.uuid));
    const options = (select) => {
      const chosen = [...select.selectedOptions].map((option) => option.value);
      replaceChildren(select, own.map((offering) => h("option", { value: offering.uuid, selected: chosen.includes(offering.uuid) }, offering.name)));
    };
    options(maintenanceForm.offerings);
    options(termsForm.offering);
  }

  function say(form, text, failed) {
    const line = form.querySelector(".outcome");
    line.textContent = text;
    line.classList.toggle("failed", failed);
  }

  async function submit(form, run) {
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      say(form, await run(), false);
      onDone();
    } catch (error) {
      say(form, error.message, true);
    } finally {
      button.disabled = false;
    }
  }

  maintenanceForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const form = maintenanceForm;
    submit(form, async () => {
      const offerings = [...form.offerings.selectedOptions].map((option) => option.value);
      const owner = choices.offerings.find((offering) => offering.uuid === offerings[0])?.customer.uuid;
      const provider = choices.serviceProviders.find((each) => each.customer.uuid === owner) ?? choices.serviceProviders[0];
      if (!provider) throw new StepFailed("You manage no service provider.");
      const name = form.announcementName.value;
      const announcement = await step(CREATE_ANNOUNCEMENT, {
        serviceProviderUuid: provider.uuid,
        name,
        message: form.message.value,
        maintenanceType: form.maintenanceType.value,
        scheduledStart: instant(form.scheduledStart.value),
        scheduledEnd: instant(form.scheduledEnd.value),
      }, "MaintenanceAnnouncement");
      for (const offeringUuid of offerings) {
        await step(LINK_OFFERING, { maintenanceUuid: announcement.uuid, offeringUuid, impactLevel: form.impactLevel.value }, "MaintenanceAnnouncementOffering");
      }
      await step(SCHEDULE, { id: announcement.id }, "MaintenanceAnnouncement");
      form.reset();
      return `Scheduled “${name}” for ${offerings.length} offering${offerings.length === 1 ? "" : "s"}.`;
    });
  });

  termsForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const form = termsForm;
    submit(form, async () => {
      // One step on the server: the new version becomes the active one as the current one steps down, or nothing changes.
      const created = await step(PUBLISH_TERMS, {
        offeringUuid: form.offering.value,
        version: form.version.value,
        termsOfService: form.text.value,
        termsOfServiceLink: form.link.value,
        requiresReconsent: form.requiresReconsent.checked,
      }, "OfferingTermsOfService");
      form.reset();
      await refresh();
      return `Version ${created.version} is now the active terms.`;
    });
  });

  return { refresh };
}
