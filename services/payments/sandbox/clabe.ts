/** CLABEs (18 digits, the last a check digit over weights 3, 7, 1) and 20-digit references. */

const WEIGHTS = [3, 7, 1];

/** The check digit of the first 17 digits of a CLABE. */
function clabeCheckDigit(first17: string): number {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(first17[i]) * WEIGHTS[i % 3]) % 10;
  return (10 - (sum % 10)) % 10;
}

/** Whether a text is an 18-digit CLABE with a valid check digit. */
export function isValidClabe(clabe: string): boolean {
  return /^\d{18}$/.test(clabe) && clabeCheckDigit(clabe) === Number(clabe[17]);
}

function digits(n: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  return Array.from(bytes, (b) => String(b % 10)).join("");
}

/** A random CLABE of BBVA (bank 012) with a valid check digit. */
export function randomClabe(): string {
  const first = `012${digits(14)}`;
  return first + clabeCheckDigit(first);
}

/** A random 20-digit payment reference (not starting with 0). */
export function randomReference(): string {
  return `${1 + (crypto.getRandomValues(new Uint8Array(1))[0] % 9)}${digits(19)}`;
}
