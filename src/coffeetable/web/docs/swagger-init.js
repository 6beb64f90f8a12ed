// Starts Swagger UI on /docs (a file, not an inline script: the docs pages' policy allows
// scripts from this site only). The schema's address is the page's data-openapi attribute.
(function () {
  'use strict';
  const root = document.getElementById('swagger-ui');
  window.ui = window.SwaggerUIBundle({
    url: root.dataset.openapi,
    dom_id: '#swagger-ui',
    layout: 'BaseLayout',
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    validatorUrl: null, // never send the schema elsewhere to be checked
    presets: [window.SwaggerUIBundle.presets.apis],
  });
})();
