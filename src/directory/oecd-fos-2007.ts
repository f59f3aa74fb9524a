import { fieldError } from "../platform/errors.ts";

/** The OECD Fields of Science and Technology (FOS 2007) a Waldur project may be classified in, by code. */
export const OECD_FOS_2007_LABELS: Readonly<Record<string, string>> = {
  "1.1": "Mathematics",
  "1.2": "Computer and information sciences",
  "1.3": "Physical sciences",
  "1.4": "Chemical sciences",
  "1.5": "Earth and related environmental sciences",
  "1.6": "Biological sciences",
  "1.7": "Other natural sciences",
  "2.1": "Civil engineering",
  "2.2": "Electrical engineering, electronic engineering, information engineering",
  "2.3": "Mechanical engineering",
  "2.4": "Chemical engineering",
  "2.5": "Materials engineering",
  "2.6": "Medical engineering",
  "2.7": "Environmental engineering",
  "2.8": "Systems engineering",
  "2.9": "Environmental biotechnology",
  "2.10": "Industrial biotechnology",
  "2.11": "Nano technology",
  "2.12": "Other engineering and technologies",
  "3.1": "Basic medicine",
  "3.2": "Clinical medicine",
  "3.3": "Health sciences",
  "3.4": "Health biotechnology",
  "3.5": "Other medical sciences",
  "4.1": "Agriculture, forestry, and fisheries",
  "4.2": "Animal and dairy science",
  "4.3": "Veterinary science",
  "4.4": "Agricultural biotechnology",
  "4.5": "Other agricultural sciences",
  "5.1": "Psychology",
  "5.2": "Economics and business",
  "5.3": "Educational sciences",
  "5.4": "Sociology",
  "5.5": "Law",
  "5.6": "Political science",
  "5.7": "Social and economic geography",
  "5.8": "Media and communications",
  "5.9": "Other social sciences",
  "6.1": "History and archaeology",
  "6.2": "Languages and literature",
  "6.3": "Philosophy, ethics and religion",
  "6.4": "Arts (arts, history of arts, performing arts, music)",
  "6.5": "Other humanities",
};

/** A code Waldur accepts: one of the list, or "" (blank) or null for an unclassified project. */
export function validOecdCode(field: string, code: string | null): string | null {
  if (code === null || code === "" || Object.hasOwn(OECD_FOS_2007_LABELS, code)) return code;
  throw fieldError(field, `"${code}" is not a valid choice.`);
}

/** Waldur's `oecd_fos_2007_label`: the code's field of science; empty for an unclassified project. */
export const oecdLabel = (code: string | null) => (code ? (OECD_FOS_2007_LABELS[code] ?? "") : "");
