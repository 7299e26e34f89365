/**
 * A rough outline of Mexico and the positions of its major cities, for the dashboard's
 * station map drawn without a tile server. Coordinates are [longitude, latitude] in
 * degrees; the outline is approximate (a few dozen points), good enough to place cities.
 */

/** The country's outline, clockwise from Tijuana (mainland and Baja California in one ring). */
export const MEXICO_OUTLINE: [number, number][] = [
  [-117.1, 32.5],
  [-114.7, 32.7],
  [-111.0, 31.3],
  [-108.2, 31.3],
  [-108.2, 31.8],
  [-106.5, 31.8],
  [-104.9, 30.6],
  [-104.4, 29.6],
  [-103.1, 29.0],
  [-102.4, 29.8],
  [-101.0, 29.4],
  [-100.3, 28.3],
  [-99.5, 27.5],
  [-99.1, 26.5],
  [-97.5, 25.9],
  [-97.2, 25.2],
  [-97.6, 23.5],
  [-97.85, 22.2],
  [-97.2, 20.6],
  [-96.1, 19.2],
  [-94.8, 18.5],
  [-94.4, 18.2],
  [-92.7, 18.6],
  [-91.5, 18.5],
  [-90.5, 19.8],
  [-90.4, 21.0],
  [-89.6, 21.3],
  [-87.1, 21.5],
  [-86.8, 21.1],
  [-87.5, 19.8],
  [-87.8, 18.3],
  [-88.3, 18.5],
  [-89.1, 17.8],
  [-90.98, 17.8],
  [-90.98, 17.25],
  [-91.4, 17.25],
  [-90.4, 16.1],
  [-91.7, 16.05],
  [-92.2, 15.25],
  [-92.2, 14.55],
  [-93.9, 15.9],
  [-94.8, 16.2],
  [-96.5, 15.65],
  [-98.2, 16.3],
  [-99.9, 16.85],
  [-101.5, 17.6],
  [-102.2, 17.95],
  [-104.3, 19.1],
  [-105.5, 20.0],
  [-105.3, 20.6],
  [-105.7, 21.9],
  [-106.4, 23.2],
  [-108.0, 25.0],
  [-109.2, 26.3],
  [-109.9, 27.0],
  [-110.9, 27.9],
  [-112.2, 29.0],
  [-113.1, 30.9],
  [-114.8, 31.8],
  [-114.6, 30.2],
  [-113.0, 28.9],
  [-112.3, 27.6],
  [-111.3, 26.0],
  [-110.4, 24.2],
  [-109.4, 23.2],
  [-110.0, 22.9],
  [-111.6, 24.5],
  [-112.1, 25.5],
  [-114.1, 27.6],
  [-115.0, 28.0],
  [-114.1, 28.5],
  [-115.6, 29.6],
  [-116.6, 31.6],
];

/** Major cities by normalized name (see {@link cityKey}). */
const CITIES: Record<string, [number, number]> = {
  "ciudad de mexico": [-99.13, 19.43],
  "guadalajara": [-103.35, 20.67],
  "zapopan": [-103.39, 20.72],
  "tlaquepaque": [-103.31, 20.64],
  "monterrey": [-100.31, 25.69],
  "san pedro garza garcia": [-100.4, 25.65],
  "guadalupe": [-100.26, 25.68],
  "apodaca": [-100.19, 25.78],
  "puebla": [-98.2, 19.04],
  "tijuana": [-117.04, 32.51],
  "ensenada": [-116.6, 31.87],
  "mexicali": [-115.45, 32.62],
  "leon": [-101.69, 21.12],
  "guanajuato": [-101.26, 21.02],
  "ciudad juarez": [-106.42, 31.69],
  "juarez": [-106.42, 31.69],
  "chihuahua": [-106.09, 28.63],
  "merida": [-89.62, 20.97],
  "cancun": [-86.85, 21.16],
  "playa del carmen": [-87.08, 20.63],
  "chetumal": [-88.3, 18.5],
  "campeche": [-90.53, 19.85],
  "queretaro": [-100.39, 20.59],
  "santiago de queretaro": [-100.39, 20.59],
  "san luis potosi": [-100.98, 22.15],
  "aguascalientes": [-102.29, 21.88],
  "zacatecas": [-102.58, 22.77],
  "hermosillo": [-110.96, 29.07],
  "saltillo": [-101.0, 25.42],
  "torreon": [-103.41, 25.54],
  "culiacan": [-107.39, 24.8],
  "mazatlan": [-106.41, 23.25],
  "morelia": [-101.19, 19.7],
  "toluca": [-99.66, 19.29],
  "cuernavaca": [-99.23, 18.92],
  "pachuca": [-98.73, 20.1],
  "tlaxcala": [-98.24, 19.32],
  "veracruz": [-96.13, 19.17],
  "xalapa": [-96.92, 19.54],
  "acapulco": [-99.89, 16.85],
  "oaxaca": [-96.72, 17.06],
  "oaxaca de juarez": [-96.72, 17.06],
  "villahermosa": [-92.93, 17.99],
  "tuxtla gutierrez": [-93.12, 16.75],
  "tapachula": [-92.26, 14.9],
  "durango": [-104.66, 24.02],
  "la paz": [-110.31, 24.14],
  "cabo san lucas": [-109.91, 22.89],
  "los cabos": [-109.91, 22.89],
  "tampico": [-97.86, 22.23],
  "reynosa": [-98.3, 26.08],
  "matamoros": [-97.5, 25.87],
  "nuevo laredo": [-99.5, 27.48],
  "ciudad victoria": [-99.14, 23.74],
  "colima": [-103.72, 19.24],
  "manzanillo": [-104.32, 19.05],
  "tepic": [-104.89, 21.5],
  "puerto vallarta": [-105.23, 20.65],
  "ciudad obregon": [-109.93, 27.49],
};

const ALIASES: Record<string, string> = {
  "cdmx": "ciudad de mexico",
  "mexico city": "ciudad de mexico",
  "df": "ciudad de mexico",
  "mexico df": "ciudad de mexico",
  "mexico": "ciudad de mexico",
  "cd juarez": "ciudad juarez",
  "cd de mexico": "ciudad de mexico",
  "cd victoria": "ciudad victoria",
  "cd obregon": "ciudad obregon",
};

/** A city's name without accents, case, dots or extra spaces, aliases resolved. */
export function cityKey(name: string): string {
  const k = name.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[.,]/g, " ").replace(/\s+/g, " ").trim();
  return ALIASES[k] ?? k;
}

/** The position of a city, or null when it is not in the table. */
export const cityPosition = (name: string): [number, number] | null =>
  CITIES[cityKey(name)] ?? null;

/** The map's box in degrees and its drawing size. */
const MAP_BOX = { west: -118, east: -86, north: 33.2, south: 14 };
const KX = Math.cos((23.5 * Math.PI) / 180);
/** Drawing width and height of the map in SVG units. */
export const MAP_W = Math.round((MAP_BOX.east - MAP_BOX.west) * KX * 20);
/** See {@link MAP_W}. */
export const MAP_H = Math.round((MAP_BOX.north - MAP_BOX.south) * 20);

/** A lon/lat projected onto the map (equirectangular, scaled at 23.5° N). */
export function project([lon, lat]: [number, number]): [number, number] {
  return [
    Math.round((lon - MAP_BOX.west) * KX * 20 * 10) / 10,
    Math.round((MAP_BOX.north - lat) * 20 * 10) / 10,
  ];
}
