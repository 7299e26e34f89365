/** The shape of the legal documents (terms of service, privacy notice) the portal shows. */

/** A legal document: title and sections. */
export interface LegalDoc {
  title: string;
  sections: { heading: string; paragraphs: string[] }[];
}
