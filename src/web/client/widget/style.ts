// The widget's styles, inside its shadow root: nothing leaks to or from the host page.
export const widgetCss = `
:host { all: initial; }
.sw-root { position: fixed; right: 16px; bottom: 16px; z-index: 2147483000; font: 15px/1.4 system-ui, sans-serif; color: #1d2433; }
.sw-launcher { background: #2450d3; color: #fff; border: 0; border-radius: 24px; padding: 12px 20px; font: inherit; font-weight: 600; cursor: pointer; float: right; }
.sw-launcher:focus-visible, button:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
.sw-panel { display: flex; flex-direction: column; width: min(380px, calc(100vw - 32px)); height: min(560px, calc(100vh - 96px)); background: #fff; border-radius: 12px; box-shadow: 0 8px 32px rgba(0,0,0,.2); margin-bottom: 12px; overflow: hidden; }
.sw-header { display: flex; align-items: center; gap: 8px; background: #2450d3; color: #fff; padding: 10px 14px; }
.sw-header h2 { font-size: 16px; margin: 0; flex: 1; }
.sw-who { font-size: 12px; opacity: .9; }
.sw-close { background: none; border: 0; color: #fff; font-size: 22px; cursor: pointer; }
.sw-away, .sw-offline { margin: 0; padding: 8px 14px; background: #fff4d6; font-size: 13px; }
.sw-messages { list-style: none; margin: 0; padding: 12px; flex: 1; overflow-y: auto; display: flex; flex-direction: column; gap: 8px; }
.sw-msg { max-width: 80%; padding: 8px 12px; border-radius: 12px; display: flex; flex-direction: column; gap: 4px; white-space: pre-wrap; }
.sw-mine { align-self: flex-end; background: #2450d3; color: #fff; }
.sw-theirs { align-self: flex-start; background: #eef1f7; }
.sw-sender { font-size: 12px; color: #56607a; }
.sw-image { max-width: 100%; border-radius: 8px; }
.sw-buttons { display: flex; flex-wrap: wrap; gap: 6px; }
.sw-button { border: 1px solid #2450d3; color: #2450d3; background: #fff; border-radius: 16px; padding: 4px 12px; font: inherit; cursor: pointer; text-decoration: none; }
.sw-button:disabled { opacity: .5; cursor: default; }
.sw-error { color: #b00020; margin: 0 12px; }
.sw-input { display: flex; gap: 8px; padding: 10px; border-top: 1px solid #e3e7ef; }
.sw-input input { flex: 1; font: inherit; padding: 8px 10px; border: 1px solid #c5cbd8; border-radius: 8px; }
.sw-input button, .sw-rating button { font: inherit; background: #2450d3; color: #fff; border: 0; border-radius: 8px; padding: 8px 14px; cursor: pointer; }
.sw-input button:disabled { background: #9aa7c7; }
.sw-rating { padding: 10px; border-top: 1px solid #e3e7ef; display: flex; flex-direction: column; gap: 8px; }
.sw-rating fieldset { border: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px; }
.sw-rating legend { margin-bottom: 6px; }
.sw-rating form { display: flex; flex-direction: column; gap: 8px; }
.sw-rating fieldset button[aria-pressed=true] { background: #d49b00; color: #fff; }
.sw-rating label, .sw-away label { display: flex; flex-direction: column; gap: 4px; font-size: 13px; }
.sw-rating input, .sw-away input { font: inherit; border: 1px solid #c5cbd8; border-radius: 8px; padding: 6px 10px; }
.sw-away p { margin: 0 0 6px; }
.sw-typing { margin: 0; padding: 2px 14px; font-size: 12px; color: #56607a; font-style: italic; }
.sw-progress { padding: 4px 14px; font-size: 12px; display: flex; flex-direction: column; gap: 2px; }
.sw-progress progress { width: 100%; }
.sw-dragging { outline: 3px dashed #2450d3; outline-offset: -6px; }
.sw-attach { background: #eef1f7 !important; color: #1d2433 !important; padding: 8px 10px !important; }
.sw-receipt { align-self: flex-end; font-size: 11px; opacity: .75; }
.sw-attachment-image { background: none; border: 0; padding: 0; cursor: zoom-in; }
.sw-attachment-image img { max-width: 200px; max-height: 200px; border-radius: 8px; display: block; }
.sw-attachment-file { color: inherit; }
.sw-draft { opacity: .85; }
.sw-thumbs { display: flex; gap: 4px; align-items: center; font-size: 12px; }
.sw-thumbs button { background: none; border: 1px solid #c5cbd8; border-radius: 6px; padding: 0 6px; cursor: pointer; }
.sw-rating fieldset button { background: #fff; color: #d49b00; border: 1px solid #d49b00; }
.sw-visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
`;
