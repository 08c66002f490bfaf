// The one module the web table's page imports: Discord's Embedded App SDK as published, re-exported
// whole so the page reaches DiscordSDK (and its enums) from a single file under /static/vendor/.
export * from '@discord/embedded-app-sdk';
