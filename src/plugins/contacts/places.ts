/**
 * Country and US state lists for the address form (lazy: only the form loads this). Codes come from
 * i18n-iso-countries (ISO 3166-1 alpha-3, as the API stores them); names from the browser's
 * Intl.DisplayNames in the user's language, with the package's English names as the fallback.
 */
import en from 'i18n-iso-countries/langs/en.json';
import countries from 'i18n-iso-countries';

countries.registerLocale(en);

export interface Option {
  value: string;
  label: string;
}

/** Names and three-letter codes, A–Z in the language; the caller puts "Select Country" (value '') first. */
export function countryOptions(language: string): Option[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([language, 'en'], { type: 'region' });
  } catch {
    names = null;
  }
  const collator = new Intl.Collator(language);
  return Object.entries(countries.getAlpha3Codes())
    .map(([alpha3, alpha2]) => ({ value: alpha3, label: names?.of(alpha2) ?? countries.getName(alpha2, 'en') ?? alpha3 }))
    .sort((a, b) => collator.compare(a.label, b.label));
}

/** The states, DC and territories with their two-letter USPS codes; "Select" (value '') goes first. */
export const US_STATES: readonly Option[] = [
  ['AL', 'Alabama'], ['AK', 'Alaska'], ['AS', 'American Samoa'], ['AZ', 'Arizona'], ['AR', 'Arkansas'], ['CA', 'California'], ['CO', 'Colorado'],
  ['CT', 'Connecticut'], ['DE', 'Delaware'], ['DC', 'District of Columbia'], ['FL', 'Florida'], ['GA', 'Georgia'], ['GU', 'Guam'], ['HI', 'Hawaii'],
  ['ID', 'Idaho'], ['IL', 'Illinois'], ['IN', 'Indiana'], ['IA', 'Iowa'], ['KS', 'Kansas'], ['KY', 'Kentucky'], ['LA', 'Louisiana'], ['ME', 'Maine'],
  ['MD', 'Maryland'], ['MA', 'Massachusetts'], ['MI', 'Michigan'], ['MN', 'Minnesota'], ['MS', 'Mississippi'], ['MO', 'Missouri'], ['MT', 'Montana'],
  ['NE', 'Nebraska'], ['NV', 'Nevada'], ['NH', 'New Hampshire'], ['NJ', 'New Jersey'], ['NM', 'New Mexico'], ['NY', 'New York'],
  ['NC', 'North Carolina'], ['ND', 'North Dakota'], ['MP', 'Northern Mariana Islands'], ['OH', 'Ohio'], ['OK', 'Oklahoma'], ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'], ['PR', 'Puerto Rico'], ['RI', 'Rhode Island'], ['SC', 'South Carolina'], ['SD', 'South Dakota'], ['TN', 'Tennessee'],
  ['TX', 'Texas'], ['VI', 'U.S. Virgin Islands'], ['UT', 'Utah'], ['VT', 'Vermont'], ['VA', 'Virginia'], ['WA', 'Washington'],
  ['WV', 'West Virginia'], ['WI', 'Wisconsin'], ['WY', 'Wyoming'],
].map(([value, label]) => ({ value: value!, label: label! }));
