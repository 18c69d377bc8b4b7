/** Demo people and counterparties. Everything here is fictional. */

export interface DemoPerson {
  username?: string;
  first: string;
  last: string;
  alias?: string;
  role?: 1 | 2 | 3 | 4;
}

/** The named demo accounts the docs and tests refer to (Acme Corp, extensions 1000–1004). */
export const ACME_CORE: DemoPerson[] = [
  { username: 'olivia', first: 'Olivia', last: 'Bennett', role: 1 },
  { username: 'alice', first: 'Alice', last: 'Nguyen', role: 3 },
  { username: 'bob', first: 'Bob', last: 'Martinez', role: 3 },
  { username: 'carol', first: 'Carol', last: 'Okafor', role: 3 },
  { username: 'dave', first: 'Dave', last: 'Kowalski', role: 4 },
];

/** The rest of Acme Corp (extensions 1005 onwards). */
export const ACME_STAFF: DemoPerson[] = [
  { first: 'Aiko', last: 'Tanaka' },
  { first: 'Mateo', last: 'García', role: 2 },
  { first: 'Priya', last: 'Raman' },
  { first: 'Lars', last: 'Johansson' },
  { first: 'Chiara', last: 'Rossi' },
  { first: 'Oluwaseun', last: 'Adeyemi', alias: 'Seun' },
  { first: 'Wei', last: 'Zhang' },
  { first: 'Fatima', last: 'Al-Sayed' },
  { first: 'Sebastian', last: 'Müller' },
  { first: 'Ana', last: 'Sousa' },
  { first: 'Dmitri', last: 'Volkov' },
  { first: 'Noa', last: 'Levi' },
  { first: 'Kwame', last: 'Mensah' },
  { first: 'Sofia', last: 'Lindqvist' },
  { first: 'Rahul', last: 'Mehta' },
  { first: 'Isabella', last: 'Costa', role: 4 },
  { first: 'Hiroshi', last: 'Watanabe' },
  { first: 'Elif', last: 'Yılmaz' },
  { first: 'Jonas', last: 'Becker' },
  { first: 'Camille', last: 'Dubois' },
  { first: 'Thabo', last: 'Nkosi' },
  { first: 'Mei Lin', last: 'Chen' },
  { first: 'Diego', last: 'Fernández' },
  { first: 'Ingrid', last: 'Halvorsen', role: 2 },
  { first: 'Yusuf', last: 'Demir' },
  { first: 'Zainab', last: 'Bello' },
  { first: 'Mikko', last: 'Virtanen' },
  { first: 'Lucía', last: 'Romero' },
  { first: 'Arjun', last: 'Nair' },
  { first: 'Siobhán', last: 'Murphy' },
  { first: 'Tomasz', last: 'Nowak', role: 4 },
  { first: 'Leila', last: 'Haddad' },
  { first: 'Pedro', last: 'Alves' },
  { first: 'Hana', last: 'Nováková' },
  { first: 'Jae-won', last: 'Park', alias: 'JW' },
  { first: 'Amara', last: 'Okonkwo' },
  { first: 'Nikolai', last: 'Petrov' },
  { first: 'Greta', last: 'Schmidt' },
  { first: 'Juan Pablo', last: 'Herrera' },
  { first: 'Ayesha', last: 'Siddiqui' },
  { first: 'Kofi', last: 'Asante' },
  { first: 'Marta', last: 'Kowalczyk' },
];

export const NORTHWIND_ADMIN: DemoPerson = { username: 'rita', first: 'Rita', last: 'Alvarez', role: 2 };

/** Outside callers: customers, suppliers and the odd person. */
export const EXTERNAL_PEOPLE_FIRST = [
  'James', 'Mary', 'Robert', 'Patricia', 'Michael', 'Jennifer', 'William', 'Linda', 'David', 'Elizabeth',
  'Richard', 'Barbara', 'Joseph', 'Susan', 'Thomas', 'Jessica', 'Charles', 'Sarah', 'Christopher', 'Karen',
  'Daniel', 'Nancy', 'Matthew', 'Lisa', 'Anthony', 'Betty', 'Mark', 'Sandra', 'Steven', 'Ashley',
  'Andre', 'Rosa', 'Hector', 'Tamika', 'Kevin', 'Grace', 'Omar', 'Yolanda', 'Tyler', 'Megan',
];
export const EXTERNAL_PEOPLE_LAST = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller', 'Davis', 'Rodriguez', 'Wilson', 'Anderson',
  'Taylor', 'Thomas', 'Moore', 'Jackson', 'Martin', 'Lee', 'Thompson', 'White', 'Harris', 'Clark',
  'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Hill', 'Green',
  'Patel', 'Kim', 'Ramirez', 'Washington', 'Foster', 'Brooks', 'Reyes', 'Sullivan', 'Hughes', 'Price',
];
export const EXTERNAL_BUSINESSES = [
  'Globex Logistics', 'Initech Billing', 'Blue Harbor Dental', 'Pinecrest Realty', 'Summit Accounting',
  'Redwood Plumbing', 'Lakeside Pharmacy', 'Metro Courier', 'Oakridge Bank', 'Brightline Insurance',
  'Cascade IT Services', 'Harbor Freight Forwarding', 'Northgate Legal', 'Sunrise Catering', 'Keystone Staffing',
  'Evergreen Landscaping', 'Copperfield Printing', 'Riverbend Clinic', 'Silverline Travel', 'Granite Office Supply',
];

/** Area codes with their CNAM-style place (what carriers show for an unknown caller). */
export const AREA_CODES: Array<[npa: string, place: string]> = [
  ['212', 'NEW YORK NY'], ['415', 'SAN FRANCISCO CA'], ['312', 'CHICAGO IL'], ['617', 'BOSTON MA'],
  ['206', 'SEATTLE WA'], ['303', 'DENVER CO'], ['512', 'AUSTIN TX'], ['404', 'ATLANTA GA'],
  ['305', 'MIAMI FL'], ['602', 'PHOENIX AZ'], ['215', 'PHILADELPHIA PA'], ['503', 'PORTLAND OR'],
];
