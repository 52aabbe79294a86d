// The /docs page: Swagger UI on the server's OpenAPI document. Its assets come from the
// server (docs.py), and this file starts it: the Content Security Policy allows no inline
// script and no other origin.
window.ui = window.SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [window.SwaggerUIBundle.presets.apis, window.SwaggerUIBundle.SwaggerUIStandalonePreset],
  layout: "BaseLayout",
});
